/**
 * Environment command line: `npm run -s envs -- stats --env gridhouse --horizon long --policy random
 * --episodes 1000 --seed 1 [--json]`. Prints full / partial / failed shares, mean length, mean milestones
 * and speed, as a table or as one JSON object. Bad flags print what is allowed and exit with code 2.
 */
import { runStats } from '../envs/stats.ts';
import { USAGE, parseEnvsArgs } from './envs-args.ts';
import { runCommand } from './flags.ts';

function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`.padStart(7);
}

function main(argv: string[]): number {
  const flags = parseEnvsArgs(argv);
  if (!flags) {
    console.log(USAGE);
    return 0;
  }
  const s = runStats(flags.env, {
    horizon: flags.horizon,
    policy: flags.policy,
    episodes: flags.episodes,
    seed: flags.seed,
    batchSize: flags.batch,
    milestoneDropout: flags.dropout,
  });
  if (flags.json) {
    console.log(JSON.stringify(s));
    return 0;
  }
  const n = (k: number): string => `(${k})`.padStart(9);
  console.log(
    `${s.env} · ${s.horizon} · ${s.policy} policy · ${s.episodes} episodes · seed ${s.seed}${s.milestoneDropout > 0 ? ` · dropout ${s.milestoneDropout}` : ''}`,
  );
  console.log(`  full success      ${percent(s.success)} ${n(s.successCount)}`);
  console.log(`  partial success   ${percent(s.partial)} ${n(s.partialCount)}   (≥ 1 milestone, task failed)`);
  console.log(`  complete failure  ${percent(s.failure)} ${n(s.failureCount)}   (no milestone)`);
  console.log(`  mean steps        ${s.meanSteps.toFixed(1).padStart(7)}   (step limit ${s.maxSteps})`);
  console.log(`  mean milestones   ${s.meanMilestones.toFixed(2).padStart(7)}   (tasks have up to ${s.maxMilestones})`);
  console.log(`  milestones reached: ${s.milestoneHistogram.map((c, k) => `${k}: ${c}`).join('  ')}`);
  console.log(
    `  speed             ${Math.round(s.stepsPerSecond).toLocaleString('en-US')} env-steps/s (batch ${s.batchSize}, policy and JIT warm-up included; npm run bench:envs measures speed)`,
  );
  return 0;
}

runCommand(() => main(process.argv.slice(2)), USAGE);
