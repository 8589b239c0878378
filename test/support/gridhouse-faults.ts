/**
 * Deliberate faults written into the WGSL GridHouse's whole-episode kernel, for the tests that show a
 * GPU environment leaving the TypeScript one is caught: by the whole replay (test/trainer/
 * gpu-rollout.test.ts) and by the checked sample's (test/trainer/sample-replay.test.ts). Each is a
 * name, the kernel text it replaces and what replaces it.
 */
export const GRIDHOUSE_FAULTS = {
  'a milestone counted twice': ['setEp(f.milestonesReached, ep(f.milestonesReached) + 1u);', 'setEp(f.milestonesReached, ep(f.milestonesReached) + 2u);'],
  'episodes ended a step early': ['if (steps >= maxSteps) {', 'if (steps + 1u >= maxSteps) {'],
  'no milestone flag recorded': ['recordMilestone(b, t, shape);', ''],
} as const satisfies Record<string, readonly [string, string]>;

export type GridHouseFault = keyof typeof GRIDHOUSE_FAULTS;

/** Each fault with the message that names it, as `it.each` takes them: [name, from, to, message]. */
export function faultCases(messages: Record<GridHouseFault, RegExp>): [string, string, string, RegExp][] {
  return (Object.keys(GRIDHOUSE_FAULTS) as GridHouseFault[]).map((name) => [name, ...GRIDHOUSE_FAULTS[name], messages[name]]);
}
