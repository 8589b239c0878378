/**
 * How a method's policy learns from an iteration, as objects a method's spec holds (method.ts `learner`).
 * The trainer (src/trainer/trainer.ts) owns the updates themselves, which need tfjs; a learner says
 * whether a critic trains alongside and picks the policy update from the trainer's, so no code outside
 * src/methods/ asks which method or learner it runs.
 */

/** The trainer's policy updates, one of which a learner picks. */
export interface PolicyUpdates<U> {
  /** PPO's clipped surrogate on the method's advantages (docs/maths.md §5). */
  clippedSurrogate: U;
  /** Cross-entropy on fresh oracle steps, as many as the rollout took; advantages only reported (§9). */
  behaviourCloning: U;
}

export interface Learner {
  /** A learned critic trains alongside the policy; its values feed the estimator (docs/maths.md §8). */
  readonly critic: boolean;
  /** Picks the policy update from the trainer's. */
  readonly policyUpdate: <U>(updates: PolicyUpdates<U>) => U;
}

/** PPO on the method's advantages. */
export const PPO_LEARNER: Learner = { critic: false, policyUpdate: (u) => u.clippedSurrogate };
/** PPO plus the regression of a learned critic whose values the advantages need (docs/maths.md §8). */
export const ACTOR_CRITIC_LEARNER: Learner = { critic: true, policyUpdate: (u) => u.clippedSurrogate };
/** Behaviour cloning on oracle steps (docs/maths.md §9). */
export const BEHAVIOUR_CLONING_LEARNER: Learner = { critic: false, policyUpdate: (u) => u.behaviourCloning };
