// Kahan-compensated summation, the group reductions' accumulator: a sequential sum in a fixed order
// (the CPU's) whose rounding error stays near one ulp of the total however many terms it has.
// Add terms with `compensatedAdd`; the total is `.sum`.

struct CompensatedSum {
  sum: f32,
  compensation: f32,
}

fn compensatedAdd(acc: CompensatedSum, term: f32) -> CompensatedSum {
  let y = term - acc.compensation;
  let next = acc.sum + y;
  return CompensatedSum(next, (next - acc.sum) - y);
}
