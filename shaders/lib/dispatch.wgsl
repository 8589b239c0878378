// The dispatch shape every kernel shares: workgroups of WORKGROUP_SIZE invocations (a pipeline
// constant the runner sets) on a 2-D grid, since large batches need more than the 65535 workgroups
// one dimension allows. A kernel's entry point takes an Invocation and asks for its flat index.

override WORKGROUP_SIZE: u32 = 64;

struct Invocation {
  @builtin(workgroup_id) workgroupId: vec3<u32>,
  @builtin(num_workgroups) numWorkgroups: vec3<u32>,
  @builtin(local_invocation_index) localIndex: u32,
}

// The flat index of a workgroup on the 2-D grid. Kernels with one workgroup per item pass the two
// builtins themselves rather than an Invocation: a struct that holds the local index is non-uniform
// as a whole, and their barriers need the workgroup index to be uniform.
fn workgroupIndex(workgroupId: vec3<u32>, numWorkgroups: vec3<u32>) -> u32 {
  return workgroupId.y * numWorkgroups.x + workgroupId.x;
}

// The flat index of an invocation (kernels with one invocation per item).
fn invocationIndex(id: Invocation) -> u32 {
  return workgroupIndex(id.workgroupId, id.numWorkgroups) * WORKGROUP_SIZE + id.localIndex;
}

// The most seeds a kernel with a seed axis takes (kernel-spec.ts KERNEL_SEEDS): its uniforms are one
// Params per seed, `array<Params, KERNEL_SEEDS>`, and the grid's z is the seed. Each workgroup takes
// its seed's as a `let`, so values read from them stay uniform for the barriers.
const KERNEL_SEEDS = 16u;
