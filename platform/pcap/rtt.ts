/**
 * ACK RTT samples of one conversation, for {samples, median, max}.
 *
 * The median needs every sample. They are kept exactly (as nanoseconds) up to a budget;
 * past it a conversation switches to a log-bucket histogram (0.5 % wide buckets), so
 * memory stays bounded by the number of conversations, not the file size. `count` and
 * `max` stay exact; only the median becomes an estimate (marked `approximate`).
 */

/** exact samples kept per conversation before switching to the histogram */
export const RTT_EXACT_PER_CONVERSATION = 1 << 20;
/** exact samples kept over all conversations together */
export const RTT_EXACT_TOTAL = 4 << 20;

const LOG_STEP = Math.log(1.005);

export class RttBudget {
  used = 0;
  constructor(readonly total = RTT_EXACT_TOTAL, readonly perConversation = RTT_EXACT_PER_CONVERSATION) {}
}

export class RttSamples {
  count = 0;
  maxNs = -Infinity;
  private exact: Float64Array | null = new Float64Array(8);
  private histogram: Map<number, number> | null = null;

  constructor(private readonly budget: RttBudget) {}

  get approximate(): boolean {
    return this.histogram !== null;
  }

  add(ns: number): void {
    this.count++;
    if (ns > this.maxNs) this.maxNs = ns;
    if (this.exact !== null) {
      const n = this.count - 1;
      if (n < this.budget.perConversation && this.budget.used < this.budget.total) {
        if (n === this.exact.length) {
          const bigger = new Float64Array(n * 2);
          bigger.set(this.exact);
          this.exact = bigger;
        }
        this.exact[n] = ns;
        this.budget.used++;
        return;
      }
      // out of budget: move what we have into the histogram
      this.histogram = new Map();
      for (let i = 0; i < n; i++) this.bucketAdd(this.exact[i]);
      this.budget.used -= n;
      this.exact = null;
    }
    this.bucketAdd(ns);
  }

  private bucketAdd(ns: number): void {
    const h = this.histogram!;
    const k = bucketOf(ns);
    h.set(k, (h.get(k) ?? 0) + 1);
  }

  /** Median in nanoseconds (mean of the two middle values for an even count), or null. */
  medianNs(): number | null {
    if (this.count === 0) return null;
    if (this.exact !== null) {
      const a = this.exact.slice(0, this.count);
      const m = this.count >> 1;
      const hi = select(a, m);
      if (this.count % 2 === 1) return hi;
      // the lower middle value is the largest of the part left of m after selection;
      // (x + y) is exact for sums below 2^53 ns (104 days), so /2 rounds once, like Decimal
      let lo = -Infinity;
      for (let i = 0; i < m; i++) if (a[i] > lo) lo = a[i];
      return (lo + hi) / 2;
    }
    const keys = [...this.histogram!.keys()].sort((a, b) => a - b);
    const lowRank = (this.count - 1) >> 1;
    const highRank = this.count >> 1;
    let seen = 0;
    let low = 0;
    let high = 0;
    for (const k of keys) {
      const n = this.histogram!.get(k)!;
      if (seen <= lowRank && lowRank < seen + n) low = bucketValue(k);
      if (seen <= highRank && highRank < seen + n) {
        high = bucketValue(k);
        break;
      }
      seen += n;
    }
    return (low + high) / 2;
  }
}

function bucketOf(ns: number): number {
  if (ns === 0) return 0;
  const a = Math.abs(ns);
  const k = 1 + Math.floor(Math.log(a) / LOG_STEP);
  return ns < 0 ? -k : k;
}

function bucketValue(k: number): number {
  if (k === 0) return 0;
  const a = Math.exp((Math.abs(k) - 0.5) * LOG_STEP);
  return k < 0 ? -a : a;
}

/** k-th smallest value (0-based) by quickselect; reorders `a` so a[0..k) <= a[k]. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    // median of three as the pivot
    const mid = (lo + hi) >> 1;
    let x = a[lo];
    let y = a[mid];
    const z = a[hi];
    if (x > y) [x, y] = [y, x];
    if (y > z) y = z; // z is not needed past here
    if (x > y) y = x;
    const pivot = y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}
