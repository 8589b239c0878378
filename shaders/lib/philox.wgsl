// The counter-based generator Philox4x32-10 (Salmon et al. 2011): 10 rounds of the 4×32 bijection
// keyed by a 64-bit key, so a draw is a pure function of (counter, key) and any invocation can make
// its own without state. src/gpu/counter-rng.ts is the TypeScript twin, bit for bit.

// High 32 bits of a 32 × 32-bit product from 16-bit halves (WGSL has no mulhi); every partial fits.
fn mulHi(a: u32, b: u32) -> u32 {
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let lh = al * bh;
  let hl = ah * bl;
  let mid = ((al * bl) >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
}

fn philox4x32(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  var x = counter;
  var k = key;
  for (var r = 0u; r < 10u; r++) {
    if (r > 0u) {
      k += vec2<u32>(0x9e3779b9u, 0xbb67ae85u);
    }
    let hi0 = mulHi(0xd2511f53u, x.x);
    let lo0 = 0xd2511f53u * x.x;
    let hi1 = mulHi(0xcd9e8d57u, x.z);
    let lo1 = 0xcd9e8d57u * x.z;
    x = vec4<u32>(hi1 ^ x.y ^ k.x, lo1, hi0 ^ x.w ^ k.y, lo0);
  }
  return x;
}

// A uniform float in [0, 1) from the top 24 bits of a word: exact in float32, as counter-rng.ts does.
fn unitFloat(word: u32) -> f32 {
  return f32(word >> 8u) / 16777216.0;
}
