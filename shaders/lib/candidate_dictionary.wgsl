// The rollout's dictionary of candidate feature rows, built on the GPU as the episodes play
// (lib/rollout.wgsl inserts every candidate of every step it plays; candidate-ranks numbers the
// rows; candidate-rows gives the update each (step, candidate)'s row). It numbers the distinct rows
// as src/trainer/update-batch.ts numbers the replay's (candidate-table.ts `renumberByFirstUse`): in
// order of first use in the run-major batch, every candidate counted, admissible or not. So the
// update's rows and distinct features are the host layout's, bit for bit (docs/maths.md §4, "The
// distinct candidate rows").
//
// One buffer of u32 words (atomic where written by many invocations), zeroed before each rollout:
// a header, an open-addressing table of DICTIONARY_SLOTS slots keyed by a 32-bit hash of the row's
// float32 bits (MurmurHash3), each slot with a second hash's largest and smallest value (two rows that
// share the first hash but not the second set the collision flag, and the batch falls back to the
// host's layout), its first use (complemented, so that the largest wins and 0 means none), its rank
// and its row; then one word per step-major (step, run, candidate) pair: its slot + 1, or 0 where the
// candidate is not admissible.

const DICTIONARY_SLOTS = 16384u; // src/gpu/candidate-dictionary.ts DICTIONARY_SLOTS
const D_OVERFLOW = 0u;
const D_COLLISION = 1u;
const D_COUNT = 2u;
const D_KEYS = 4u;
const D_HASH_MAX = D_KEYS + DICTIONARY_SLOTS;
const D_HASH_MIN = D_HASH_MAX + DICTIONARY_SLOTS; // complemented
const D_FIRST_USE = D_HASH_MIN + DICTIONARY_SLOTS; // complemented
const D_RANK = D_FIRST_USE + DICTIONARY_SLOTS;
const D_LIST = D_RANK + DICTIONARY_SLOTS;
const D_ROWS = D_LIST + DICTIONARY_SLOTS;

// First word of the pair records, for rows of `actionDim` floats.
fn dictionaryPairs(actionDim: u32) -> u32 {
  return D_ROWS + DICTIONARY_SLOTS * actionDim;
}
