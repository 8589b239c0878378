/**
 * Where one method's seeds meet inside an iteration (src/worker/seed-runs.ts): each seed's trainer runs
 * its own iteration, and at a rendezvous (its rollout, its read-back) it hands over what it has and
 * waits; once every seed of the round has come, `meet` does the work for all of them at once (one
 * dispatch, one read-back) and each gets its own answer back. A seed whose iteration ends before it
 * comes (an error, a diverged update) `leave`s, so that the others never wait for it.
 */
interface Waiting<In, Out> {
  who: number;
  item: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

export class Rendezvous<In, Out> {
  /** Participants still expected this round (0: not armed). */
  private expected = 0;
  private waiting: Waiting<In, Out>[] = [];
  /** Those that came or left this round. */
  private settled = new Set<number>();
  /** Rounds met so far (tests read it). */
  rounds = 0;

  /** `meet` takes the round's items in participant order and returns their answers in the same order. */
  constructor(private readonly meet: (items: In[]) => Promise<Out[]>) {}

  get armed(): boolean {
    return this.expected > 0;
  }

  /** The next `count` participants' calls meet. */
  arm(count: number): void {
    if (this.waiting.length > 0) throw new Error('Rendezvous: armed while a round is in progress');
    this.expected = count;
    this.settled.clear();
  }

  /** Participant `who`'s item; resolves with its answer once the round has met (at once where not armed). */
  join(who: number, item: In): Promise<Out> {
    if (!this.armed) return this.meet([item]).then(([out]) => out); // nobody to wait for
    return new Promise<Out>((resolve, reject) => {
      this.settled.add(who);
      this.waiting.push({ who, item, resolve, reject });
      if (this.waiting.length === this.expected) void this.play();
    });
  }

  /** Participant `who` will not come this round (nothing happens if it came). */
  leave(who: number): void {
    if (!this.armed || this.settled.has(who)) return;
    this.settled.add(who);
    this.expected--;
    if (this.expected > 0 && this.waiting.length === this.expected) void this.play();
  }

  private async play(): Promise<void> {
    const round = this.waiting.sort((a, b) => a.who - b.who);
    this.waiting = [];
    this.expected = 0;
    this.rounds++;
    try {
      const out = await this.meet(round.map((w) => w.item));
      round.forEach((w, i) => w.resolve(out[i]));
    } catch (e) {
      for (const w of round) w.reject(e);
    }
  }
}
