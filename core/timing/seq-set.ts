/**
 * The crossing seqs the engine has seen, in pages of consecutive seqs. One Set of every seq rehashed them
 * all when it grew (about 50 ms at 524,288 seqs), stalling the one crossing that tipped it; a page is a bitmap,
 * which never rehashes and costs a bit a seq instead of a hash entry (about 30 bytes), so a 50,000-racer race
 * keeps its room under an isolate's memory (decision 0095). Seqs are the crossing log's row ids, so they are
 * dense integers and pages fill; any other number is kept exactly in a plain Set.
 */

/** Seqs per page. */
const PAGE_SIZE = 4096;
/** A page's 32-bit words of bits, then one word counting its seqs. */
const WORDS = PAGE_SIZE / 32;

/** The page a seq lives in. */
function pageOf(seq: number): number {
  return Math.floor(seq / PAGE_SIZE);
}

/** A set of seqs: a bit per integer seq, in pages that are dropped when emptied. */
export class SeqSet {
  private readonly pages = new Map<number, Uint32Array>();
  /** Seqs that are not safe integers (no log row has one); a bit cannot tell 1.5 from 1. */
  private readonly others = new Set<number>();
  private count = 0;

  /** How many seqs it holds. */
  get size(): number {
    return this.count;
  }

  /** Whether `seq` was added (and not deleted since). */
  has(seq: number): boolean {
    if (!Number.isSafeInteger(seq)) return this.others.has(seq);
    const key = pageOf(seq);
    const page = this.pages.get(key);
    if (page === undefined) return false;
    const bit = seq - key * PAGE_SIZE;
    return (page[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  }

  /** Adds `seq`; false when it was already there. */
  add(seq: number): boolean {
    if (!Number.isSafeInteger(seq)) {
      if (this.others.has(seq)) return false;
      this.others.add(seq);
      this.count++;
      return true;
    }
    const key = pageOf(seq);
    let page = this.pages.get(key);
    if (page === undefined) {
      page = new Uint32Array(WORDS + 1);
      this.pages.set(key, page);
    }
    const bit = seq - key * PAGE_SIZE;
    const mask = 1 << (bit & 31);
    if ((page[bit >>> 5]! & mask) !== 0) return false;
    page[bit >>> 5] = page[bit >>> 5]! | mask;
    page[WORDS] = page[WORDS]! + 1;
    this.count++;
    return true;
  }

  /** Removes `seq`; false when it was not there. An emptied page goes too. */
  delete(seq: number): boolean {
    if (!Number.isSafeInteger(seq)) {
      if (!this.others.delete(seq)) return false;
      this.count--;
      return true;
    }
    const key = pageOf(seq);
    const page = this.pages.get(key);
    if (page === undefined) return false;
    const bit = seq - key * PAGE_SIZE;
    const mask = 1 << (bit & 31);
    if ((page[bit >>> 5]! & mask) === 0) return false;
    page[bit >>> 5] = page[bit >>> 5]! & ~mask;
    page[WORDS] = page[WORDS]! - 1;
    this.count--;
    if (page[WORDS] === 0) this.pages.delete(key);
    return true;
  }
}
