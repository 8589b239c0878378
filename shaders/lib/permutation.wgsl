// A keyed bijection of [0, n): a balanced Feistel network on the smallest domain of 2·h bits that
// holds n, walked along its cycle until the value falls inside [0, n) (cycle walking keeps it a
// bijection of [0, n); the domain is under 4n, so fewer than 4 walks are expected). Each round's
// function is Philox4x32-10 at counter (half, round, tweak, 0) under the key, so the permutation is a
// pure function of (key, tweak, i) and any invocation computes its own element.
// src/gpu/minibatch-permutation.ts `permutedIndex` is the TypeScript twin, bit for bit.

import package::lib::philox::philox4x32;

const FEISTEL_ROUNDS: u32 = 4u;

// Bits of each half for a domain that holds n (at least 1, so the domain is at least 4).
fn feistelHalfBits(n: u32) -> u32 {
  var h = 1u;
  while ((1u << (2u * h)) < n) {
    h += 1u;
  }
  return h;
}

fn feistel(x: u32, halfBits: u32, key: vec2<u32>, tweak: u32) -> u32 {
  let mask = (1u << halfBits) - 1u;
  var left = x >> halfBits;
  var right = x & mask;
  for (var r = 0u; r < FEISTEL_ROUNDS; r++) {
    let f = philox4x32(vec4<u32>(right, r, tweak, 0u), key).x & mask;
    let next = left ^ f;
    left = right;
    right = next;
  }
  return (left << halfBits) | right;
}

// The i-th element (i < n) of the permutation of [0, n) under (key, tweak).
fn permutedIndex(i: u32, n: u32, key: vec2<u32>, tweak: u32) -> u32 {
  let halfBits = feistelHalfBits(n);
  var x = feistel(i, halfBits, key, tweak);
  while (x >= n) {
    x = feistel(x, halfBits, key, tweak);
  }
  return x;
}
