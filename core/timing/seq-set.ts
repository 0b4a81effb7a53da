/**
 * The crossing seqs the engine has seen, in pages of consecutive seqs. One Set of every seq rehashed them
 * all when it grew (about 50 ms at 524,288 seqs), stalling the one crossing that tipped it; a page rehashes
 * at most PAGE_SIZE. Seqs are the crossing log's row ids, so they are dense and pages fill; any number works.
 */

/** Seqs per page: a page's rehash stays well under a millisecond. */
const PAGE_SIZE = 4096;

/** The page a seq lives in. */
function pageOf(seq: number): number {
  return Math.floor(seq / PAGE_SIZE);
}

/** A set of seqs that never rehashes more than one page at a time. */
export class SeqSet {
  private readonly pages = new Map<number, Set<number>>();
  private count = 0;

  /** How many seqs it holds. */
  get size(): number {
    return this.count;
  }

  /** Whether `seq` was added (and not deleted since). */
  has(seq: number): boolean {
    return this.pages.get(pageOf(seq))?.has(seq) === true;
  }

  /** Adds `seq`; false when it was already there. */
  add(seq: number): boolean {
    const key = pageOf(seq);
    let page = this.pages.get(key);
    if (page === undefined) {
      page = new Set();
      this.pages.set(key, page);
    }
    const before = page.size;
    page.add(seq);
    if (page.size === before) return false;
    this.count++;
    return true;
  }

  /** Removes `seq`; false when it was not there. An emptied page goes too. */
  delete(seq: number): boolean {
    const key = pageOf(seq);
    const page = this.pages.get(key);
    if (page === undefined || !page.delete(seq)) return false;
    this.count--;
    if (page.size === 0) this.pages.delete(key);
    return true;
  }
}
