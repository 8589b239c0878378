// The whole-episode rollout's side of the candidate dictionary (lib/candidate_dictionary.wgsl): entering
// each step's candidates, a cache of the rows a run has already entered, and the candidate embeddings
// published once per distinct row per rollout (docs/maths.md §4, "The distinct candidate rows").
//
// - The run's cache, in workgroup memory, keyed by both of a row's hashes: a row the run has entered
//   skips the shared table (its probes and read-modify-writes), since its first use in the run-major
//   order is already recorded there and cannot move. Only the first sight of a row in a run touches the
//   words that all runs share.
// - The embeddings: after the pair records, one record of 1 + H words per table slot, zeroed by the
//   host before each rollout: the claiming row's second hash (the lane that claims it with a compare-
//   exchange publishes), then e[j] as the complement of its float32 bits, so that 0 means "not yet
//   written" and each word is whole or absent when another workgroup reads it (one atomic word each;
//   the words' order of arrival does not matter). A reader that finds a word missing computes the row
//   itself: no workgroup ever waits on another (nothing guarantees their progress). Every writer and
//   reader computes a row with the same code, so the logits are the same bits whoever computed it.
//   (A NaN embedding word of all ones reads as missing: it is then recomputed, to the same NaN.)

import package::lib::env_step::actionFeatures;
import package::lib::candidate_dictionary::{DICTIONARY_SLOTS, D_OVERFLOW, D_KEYS, D_HASH_MAX, D_HASH_MIN, D_FIRST_USE, D_ROWS, dictionaryPairs};

// The dictionary, its pair records and the published embeddings (src/gpu/candidate-dictionary.ts),
// zeroed by the host before the dispatch, all but the pair records. Bound to a buffer too small for the
// pairs (a batch over the binding limit), the kernel records none; too small for the embeddings, each
// run computes its rows itself.
@group(0) @binding(10) var<storage, read_write> candidateTable: array<atomic<u32>>;

// A leading seed axis: the binding holds one dictionary per seed, each `tableWords` words from
// `tableBase` (set by useSeedTable before any other function here), so that a seed's runs never read
// another seed's rows or embeddings (which depend on that seed's weights).
var<private> tableBase: u32;
var<private> tableWords: u32;

// The dictionary of seed `seed` of `numSeeds`, each an equal share of the binding.
fn useSeedTable(seed: u32, numSeeds: u32) {
  tableWords = arrayLength(&candidateTable) / numSeeds;
  tableBase = seed * tableWords;
}

// Slots of a run's cache (a run meets a few dozen distinct rows), and probes before giving up on it.
const RUN_CACHE_SLOTS = 256u;
const RUN_CACHE_PROBES = 8u;
var<workgroup> runCacheKey: array<atomic<u32>, RUN_CACHE_SLOTS>;
var<workgroup> runCacheCheck: array<u32, RUN_CACHE_SLOTS>;
var<workgroup> runCacheSlot: array<u32, RUN_CACHE_SLOTS>; // table slot + 1

// Two MurmurHash3 (x86, 32-bit) hashes of a row's words under two seeds: `key` (never 0, which marks an
// empty slot) places it in the table, `check` tells apart rows that share it.
struct RowHash {
  key: u32,
  check: u32,
}

// MurmurHash3's step for one word: its low bits reach the high ones and back (a float's low mantissa
// bits are mostly zero, so a plain multiplicative hash such as FNV-1a would leave the key's low bits,
// the slot, the same for every row).
fn murmurWord(h: u32, word: u32) -> u32 {
  var k = word * 0xcc9e2d51u;
  k = (k << 15u) | (k >> 17u);
  k *= 0x1b873593u;
  var x = h ^ k;
  x = (x << 13u) | (x >> 19u);
  return x * 5u + 0xe6546b64u;
}

// MurmurHash3's finish over `words` words.
fn murmurFinal(h: u32, words: u32) -> u32 {
  var x = h ^ (words * 4u);
  x ^= x >> 16u;
  x *= 0x85ebca6bu;
  x ^= x >> 13u;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16u);
}

// The hashes of the `F` features from actionFeatures[base].
fn rowHash(base: u32, F: u32) -> RowHash {
  var hash = 0u;
  var check = 0x9e3779b9u;
  for (var i = 0u; i < F; i++) {
    let word = bitcast<u32>(actionFeatures[base + i]);
    hash = murmurWord(hash, word);
    check = murmurWord(check, word);
  }
  hash = murmurFinal(hash, F);
  check = murmurFinal(check, F);
  return RowHash(select(hash, 1u, hash == 0u), check);
}

// The row's table slot + 1 if this run has entered it before, else 0.
fn runCacheFind(row: RowHash) -> u32 {
  var at = row.key & (RUN_CACHE_SLOTS - 1u);
  for (var probe = 0u; probe < RUN_CACHE_PROBES; probe++) {
    let key = atomicLoad(&runCacheKey[at]);
    if (key == 0u) {
      return 0u;
    }
    if (key == row.key && runCacheCheck[at] == row.check) {
      return runCacheSlot[at];
    }
    at = (at + 1u) & (RUN_CACHE_SLOTS - 1u);
  }
  return 0u;
}

// Remembers the row's slot + 1 for the run's later steps (read only after a barrier). A full cache or
// another row with the same key leaves it out: that row then enters through the table each step.
fn runCacheRemember(row: RowHash, slotPlusOne: u32) {
  var at = row.key & (RUN_CACHE_SLOTS - 1u);
  for (var probe = 0u; probe < RUN_CACHE_PROBES; probe++) {
    let claim = atomicCompareExchangeWeak(&runCacheKey[at], 0u, row.key);
    if (claim.exchanged) {
      runCacheCheck[at] = row.check;
      runCacheSlot[at] = slotPlusOne;
      return;
    }
    if (claim.old_value == row.key) {
      return;
    }
    if (claim.old_value != 0u) {
      at = (at + 1u) & (RUN_CACHE_SLOTS - 1u);
    }
  }
}

// Enters a row first seen by this run into the shared table: its slot (claimed by the first to come,
// which writes the row), both hashes' extremes (two rows that share the key but not the check set the
// collision flag in candidate-ranks) and its first use `firstUse` in the run-major order. Returns the
// slot + 1, or 0 if the table is full (the overflow flag set: the batch takes the host's layout).
fn tableEnter(row: RowHash, base: u32, F: u32, firstUse: u32) -> u32 {
  var slot = row.key & (DICTIONARY_SLOTS - 1u);
  var found = false;
  // Linear probing; a weak exchange may fail without cause, so a probe retries its slot until it is taken.
  for (var probe = 0u; probe < 2u * DICTIONARY_SLOTS; probe++) {
    let claim = atomicCompareExchangeWeak(&candidateTable[tableBase + D_KEYS + slot], 0u, row.key);
    if (claim.exchanged) {
      for (var i = 0u; i < F; i++) {
        atomicStore(&candidateTable[tableBase + D_ROWS + slot * F + i], bitcast<u32>(actionFeatures[base + i]));
      }
      found = true;
      break;
    }
    if (claim.old_value == row.key) {
      found = true;
      break;
    }
    if (claim.old_value != 0u) {
      slot = (slot + 1u) & (DICTIONARY_SLOTS - 1u);
    }
  }
  if (!found) {
    atomicStore(&candidateTable[tableBase + D_OVERFLOW], 1u);
    return 0u;
  }
  // A load first keeps most of these read-modify-writes, which contend on a few hundred words, from
  // happening at all (each would change nothing).
  if (atomicLoad(&candidateTable[tableBase + D_HASH_MAX + slot]) != row.check || atomicLoad(&candidateTable[tableBase + D_HASH_MIN + slot]) != ~row.check) {
    atomicMax(&candidateTable[tableBase + D_HASH_MAX + slot], row.check);
    atomicMax(&candidateTable[tableBase + D_HASH_MIN + slot], ~row.check);
  }
  if (atomicLoad(&candidateTable[tableBase + D_FIRST_USE + slot]) < ~firstUse) {
    atomicMax(&candidateTable[tableBase + D_FIRST_USE + slot], ~firstUse);
  }
  return slot + 1u;
}

// What entering a candidate found: its table slot + 1 (0: none) and whether the run's cache lacks it.
struct Entered {
  slotPlusOne: u32,
  remember: bool,
}

// Enters the candidate whose `F` features start at actionFeatures[base] (first use `firstUse` in the
// run-major order) and records the pair `pair` (its slot + 1, or 0 where it is not admissible). With
// `pairs` at or past the buffer's end (no dictionary kept), records nothing and returns slot 0.
fn enterCandidate(row: RowHash, base: u32, F: u32, firstUse: u32, pair: u32, admissible: bool) -> Entered {
  let pairs = dictionaryPairs(F);
  if (pairs + (pair + 1u) > tableWords) {
    return Entered(0u, false);
  }
  var slotPlusOne = runCacheFind(row);
  let known = slotPlusOne != 0u;
  if (!known) {
    slotPlusOne = tableEnter(row, base, F, firstUse);
  }
  atomicStore(&candidateTable[tableBase + pairs + pair], select(0u, slotPlusOne, admissible && slotPlusOne != 0u));
  return Entered(slotPlusOne, !known && slotPlusOne != 0u);
}

// First word of the embedding records, after `pairs` pair records of rows of `F` features.
fn embeddingsAt(F: u32, pairs: u32) -> u32 {
  return dictionaryPairs(F) + pairs;
}

// First word of slot + 1's embedding record of width H, or 0 where the buffer has no room for it.
fn embeddingRecord(slotPlusOne: u32, F: u32, pairs: u32, H: u32) -> u32 {
  if (slotPlusOne == 0u) {
    return 0u;
  }
  let at = embeddingsAt(F, pairs) + (slotPlusOne - 1u) * (H + 1u);
  return select(0u, at, at + H + 1u <= tableWords);
}

// The word that marks a record as the row of second hash `check` (never 0, which marks it free).
fn ownerWord(check: u32) -> u32 {
  return select(check, 1u, check == 0u);
}

// How a run gets a candidate's embedding this step.
const EMBEDDING_PUBLISHED = 0u; // complete in its record: read it
const EMBEDDING_CLAIMED = 1u; // this run claimed the free record: compute and publish it
const EMBEDDING_COMPUTE = 2u; // claimed by another row, or another run still writing it, or no record: compute it

// Whether the record at `record` (0: none) holds the row of `check`'s embedding, is this run's to
// write, or neither. A published record may still lack words: the reader checks each word as it reads.
fn embeddingState(record: u32, check: u32) -> u32 {
  if (record == 0u) {
    return EMBEDDING_COMPUTE;
  }
  let owner = ownerWord(check);
  let word = atomicLoad(&candidateTable[tableBase + record]);
  if (word == owner) {
    return EMBEDDING_PUBLISHED;
  }
  if (word == 0u && atomicCompareExchangeWeak(&candidateTable[tableBase + record], 0u, owner).exchanged) {
    return EMBEDDING_CLAIMED;
  }
  return EMBEDDING_COMPUTE;
}

// Embedding word j of the record at `record`: the complement of the float's bits, 0 while unwritten.
fn embeddingWord(record: u32, j: u32) -> u32 {
  return atomicLoad(&candidateTable[tableBase + record + 1u + j]);
}

fn publishEmbedding(record: u32, j: u32, value: f32) {
  atomicStore(&candidateTable[tableBase + record + 1u + j], ~bitcast<u32>(value));
}
