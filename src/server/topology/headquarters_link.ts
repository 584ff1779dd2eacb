/**
 * A regional node's view of headquarters, which executes its changes: asked every sync interval
 * (GET /api/system/health, bounded by HEALTH_TIMEOUT_MS) and told by every forwarded change, so that
 * the node's status says changes are paused while they are, and a change is refused at once,
 * "not done", while headquarters is known to be unreachable instead of waiting for its deadline.
 */
/** A health answer slower than this counts as a failure. */
export const HEALTH_TIMEOUT_MS = 2_000;
/**
 * Failed health checks in a row before headquarters counts as unreachable: one slow answer on a
 * busy machine is not an outage. A refused connection counts at once.
 */
export const FAILED_CHECKS_BEFORE_DOWN = 2;
/** The connection to headquarters was refused: the request never left this node. */
export function isConnectionRefused(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { message, code } = current as { message?: string; code?: string };
    if (code === "ECONNREFUSED" || /connection refused|tcp connect error/i.test(message ?? "")) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The public route headquarters answers it on. */
export const HEALTH_PATH = "/api/system/health";

export interface HealthAnswer {
  changesAccepted: boolean;
}

/** A span during which this node paused changes, on the primary's time scale (ms). */
export interface PauseSpan {
  fromMs: number;
  toMs: number;
}

/** Told of every answer from headquarters; `resumed` is the pause that answer ended, if any. */
export type AnswerListener = (resumed: PauseSpan | null) => void;

export class HeadquartersLink {
  readonly #url: string;
  #timer: ReturnType<typeof setInterval> | undefined;
  #failures = 0;
  #changesAccepted = true;
  #asking = false;
  /** Since when changes are paused here; null while they are not. */
  #pausedSinceMs: number | null = null;
  readonly #now: () => number;
  #listener: AnswerListener | null = null;

  /** `now`: the primary's time (topology/clock.ts), so that a pause's span means the same everywhere. */
  constructor(headquartersUrl: string, now: () => number = Date.now) {
    this.#url = headquartersUrl;
    this.#now = now;
  }

  onAnswer(listener: AnswerListener): void {
    this.#listener = listener;
  }

  /** Asks every `intervalMs` from now on. */
  start(intervalMs: number): void {
    void this.ask();
    this.#timer = setInterval(() => void this.ask(), intervalMs);
    Deno.unrefTimer(this.#timer);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async ask(): Promise<void> {
    if (this.#asking) return;
    this.#asking = true;
    try {
      const answer = await fetch(`${this.#url}${HEALTH_PATH}`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      if (!answer.ok) throw new Error(`headquarters answered ${answer.status}`);
      this.succeeded(((await answer.json()) as HealthAnswer).changesAccepted);
    } catch (error) {
      this.failed(isConnectionRefused(error));
    } finally {
      this.#asking = false;
    }
  }

  succeeded(changesAccepted = this.#changesAccepted): void {
    this.#failures = 0;
    this.#changesAccepted = changesAccepted;
    const resumed = this.#notePause();
    this.#listener?.(resumed);
  }

  /** A failed check or forwarded change; `refused`: the connection itself was refused. */
  failed(refused = false): void {
    this.#failures = refused ? FAILED_CHECKS_BEFORE_DOWN : this.#failures + 1;
    this.#notePause();
  }

  /** Starts or ends the current pause; returns the pause that just ended. */
  #notePause(): PauseSpan | null {
    const paused = !this.reachable || !this.#changesAccepted;
    if (paused && this.#pausedSinceMs === null) this.#pausedSinceMs = this.#now();
    if (paused || this.#pausedSinceMs === null) return null;
    const span = { fromMs: this.#pausedSinceMs, toMs: this.#now() };
    this.#pausedSinceMs = null;
    return span;
  }

  /**
   * Whether headquarters answered lately. Unlike the primary's sync, which sqld's log compaction
   * holds back for seconds while changes still succeed, headquarters not answering its health
   * check means a change would fail too.
   */
  get reachable(): boolean {
    return this.#failures < FAILED_CHECKS_BEFORE_DOWN;
  }

  /** Whether headquarters said it accepts changes (it reaches the primary) at its last answer. */
  get changesAccepted(): boolean {
    return this.#changesAccepted;
  }
}
