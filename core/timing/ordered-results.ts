/**
 * A sorted list kept in blocks (the leaves of a B+-tree with a flat index), for result groups of tens of
 * thousands of racers: one plain sorted array made every move a splice of the whole group (O(n), 250 to 550
 * µs a crossing at 50,000 racers once reads arrive out of order). Here a lookup is a binary search over the blocks' last
 * items then one within a block, an insert or a remove shifts one block of at most `maxBlock` items, and a
 * Fenwick tree over the block lengths gives an item's position. A split or merge rebuilds the block index,
 * O(n / maxBlock), at most once per maxBlock / 4 inserts or removes. Items must be distinct under `compare`.
 */

/** Negative when `a` comes first, 0 for the same item, positive when `b` does. */
export type Compare<T> = (a: T, b: T) => number;

/** Blocks of 64 to 256 items: a splice within one is a few hundred ns, and 50,000 racers fill ~400 blocks. */
export const DEFAULT_MAX_BLOCK = 256;

/** Sorted, distinct items in blocks, with O(log n) insert, remove, move and position. */
export class OrderedList<T> {
  private readonly compare: Compare<T>;
  private readonly maxBlock: number;
  /** Below this a block is merged into a neighbour, so blocks stay between a quarter full and full. */
  private readonly minBlock: number;
  /** Never empty blocks, each sorted, each block's items before the next block's. */
  private blocks: T[][] = [];
  /** Each block's last item, so the block search reads one flat array rather than every block it visits. */
  private lasts: T[] = [];
  /** Fenwick tree (1-based) over the block lengths: the items before a block in O(log blocks). */
  private tree: number[] = [0];
  private count = 0;

  constructor(compare: Compare<T>, maxBlock: number = DEFAULT_MAX_BLOCK) {
    if (!Number.isInteger(maxBlock) || maxBlock < 2) throw new RangeError(`ordered list: maxBlock must be an integer of at least 2, not ${maxBlock}`);
    this.compare = compare;
    this.maxBlock = maxBlock;
    this.minBlock = Math.max(1, maxBlock >> 2);
  }

  /** A list of already sorted, distinct items, in half-full blocks (room to grow before the first split). */
  static fromSorted<T>(compare: Compare<T>, sorted: readonly T[], maxBlock: number = DEFAULT_MAX_BLOCK): OrderedList<T> {
    const list = new OrderedList(compare, maxBlock);
    const blockCount = Math.ceil(sorted.length / Math.max(1, maxBlock >> 1));
    for (let i = 0; i < blockCount; i++) {
      list.blocks.push(sorted.slice(Math.floor((i * sorted.length) / blockCount), Math.floor(((i + 1) * sorted.length) / blockCount)));
    }
    list.count = sorted.length;
    list.rebuildIndex();
    return list;
  }

  /** How many items the list holds. */
  get size(): number {
    return this.count;
  }

  /** Adds `item` in its place; throws when an item equal to it under `compare` is already there. */
  insert(item: T): void {
    if (this.blocks.length === 0) {
      this.blocks.push([item]);
      this.count = 1;
      this.rebuildIndex();
      return;
    }
    // Above every item: it goes at the end of the last block.
    const b = Math.min(this.findBlock(item), this.blocks.length - 1);
    const block = this.blocks[b] as T[];
    const at = this.lowerBoundIn(block, item);
    if (at < block.length && this.compare(block[at] as T, item) === 0) throw new Error("ordered list: an equal item is already in the list");
    block.splice(at, 0, item);
    this.count++;
    if (block.length > this.maxBlock) {
      this.splitBlock(b);
      this.rebuildIndex();
    } else {
      this.addToTree(b, 1);
      this.refreshLast(b);
    }
  }

  /** Removes the item equal to `item` and returns it; undefined (and no change) when there is none. */
  remove(item: T): T | undefined {
    const b = this.findBlock(item);
    const at = this.offsetOf(b, item);
    if (at < 0) return undefined;
    const block = this.blocks[b] as T[];
    const removed = block.splice(at, 1)[0] as T;
    this.count--;
    if (block.length < this.minBlock) {
      this.mergeBlock(b);
      this.rebuildIndex();
    } else {
      this.addToTree(b, -1);
      this.refreshLast(b);
    }
    return removed;
  }

  /**
   * Puts `next` in place of the item equal to `previous` (where it was when it still sorts between that
   * item's neighbours, else where it sorts); returns the item replaced, or undefined (and no change) when
   * there is none. Throws, changing nothing, when another item equal to `next` is already in the list.
   */
  replace(previous: T, next: T): T | undefined {
    const b = this.findBlock(previous);
    const at = this.offsetOf(b, previous);
    if (at < 0) return undefined;
    const block = this.blocks[b] as T[];
    const replaced = block[at] as T;
    const before = at > 0 ? block[at - 1] : this.blocks[b - 1]?.at(-1);
    const after = at < block.length - 1 ? block[at + 1] : this.blocks[b + 1]?.[0];
    if ((before === undefined || this.compare(before, next) < 0) && (after === undefined || this.compare(next, after) < 0)) {
      block[at] = next;
      if (at === block.length - 1) this.lasts[b] = next;
      return replaced;
    }
    // Above every item: it goes at the end of the last block.
    const target = Math.min(this.findBlock(next), this.blocks.length - 1);
    const targetBlock = this.blocks[target] as T[];
    const to = this.lowerBoundIn(targetBlock, next);
    if (to < targetBlock.length && this.compare(targetBlock[to] as T, next) === 0) throw new Error("ordered list: an equal item is already in the list");
    block.splice(at, 1);
    if (target === b) {
      // `to` was counted with `previous` still there: past it, one less.
      block.splice(to > at ? to - 1 : to, 0, next);
      this.refreshLast(b);
      return replaced;
    }
    targetBlock.splice(to, 0, next);
    const overfull = targetBlock.length > this.maxBlock;
    if (overfull) this.splitBlock(target);
    const source = overfull && b > target ? b + 1 : b;
    const underfull = block.length < this.minBlock;
    if (underfull) this.mergeBlock(source);
    if (overfull || underfull) this.rebuildIndex();
    else {
      this.addToTree(target, 1);
      this.addToTree(b, -1);
      this.refreshLast(target);
      this.refreshLast(b);
    }
    return replaced;
  }

  /** The item equal to `item` as stored, or undefined. */
  get(item: T): T | undefined {
    const b = this.findBlock(item);
    const at = this.offsetOf(b, item);
    return at < 0 ? undefined : this.blocks[b]?.[at];
  }

  /** Position (0-based) of the item equal to `item`, or -1 when there is none. */
  indexOf(item: T): number {
    const b = this.findBlock(item);
    const at = this.offsetOf(b, item);
    return at < 0 ? -1 : this.itemsBefore(b) + at;
  }

  /** The item at a position (0-based), or undefined outside the list. */
  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    // Fenwick descent: the last block whose items-before count is at most `index`.
    let position = 0;
    let rest = index;
    for (let step = highestPowerOfTwo(this.blocks.length); step > 0; step >>= 1) {
      const next = position + step;
      if (next <= this.blocks.length && (this.tree[next] as number) <= rest) {
        position = next;
        rest -= this.tree[next] as number;
      }
    }
    return this.blocks[position]?.[rest];
  }

  /** Every item in order (a copy). */
  toArray(): T[] {
    return this.blocks.flat() as T[];
  }

  /** Each block's length, in order: for tests and diagnostics of splits and merges. */
  blockLengths(): number[] {
    return this.blocks.map((block) => block.length);
  }

  /** Index of the first block whose last item is not below `item`; blocks.length when above them all. */
  private findBlock(item: T): number {
    let low = 0;
    let high = this.lasts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(this.lasts[middle] as T, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** First offset in `block` whose item is not below `item`. */
  private lowerBoundIn(block: readonly T[], item: T): number {
    let low = 0;
    let high = block.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(block[middle] as T, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Offset in block `b` (from findBlock) of the item equal to `item`, or -1. */
  private offsetOf(b: number, item: T): number {
    const block = this.blocks[b];
    if (block === undefined) return -1;
    const at = this.lowerBoundIn(block, item);
    return at < block.length && this.compare(block[at] as T, item) === 0 ? at : -1;
  }

  /** Halves an overfull block (the caller rebuilds the index). */
  private splitBlock(b: number): void {
    const block = this.blocks[b] as T[];
    const half = block.length >> 1;
    this.blocks.splice(b + 1, 0, block.slice(half));
    block.length = half;
  }

  /** Drops an emptied block, or joins an underfull one to a neighbour, halving the join if overfull (the caller rebuilds the index). */
  private mergeBlock(b: number): void {
    const block = this.blocks[b] as T[];
    if (block.length === 0) {
      this.blocks.splice(b, 1);
    } else if (this.blocks.length > 1) {
      const left = b + 1 < this.blocks.length ? b : b - 1;
      const joined = (this.blocks[left] as T[]).concat(this.blocks[left + 1] as T[]);
      if (joined.length > this.maxBlock) {
        const half = joined.length >> 1;
        this.blocks.splice(left, 2, joined.slice(0, half), joined.slice(half));
      } else this.blocks.splice(left, 2, joined);
    }
  }

  /** Block `b` changed without a split or merge: its last item may have. */
  private refreshLast(b: number): void {
    const block = this.blocks[b] as T[];
    this.lasts[b] = block[block.length - 1] as T;
  }

  /** Rebuilds the last items and the Fenwick tree from the blocks, O(blocks). */
  private rebuildIndex(): void {
    this.lasts = this.blocks.map((block) => block[block.length - 1] as T);
    const size = this.blocks.length;
    const tree = new Array<number>(size + 1).fill(0);
    for (let i = 1; i <= size; i++) {
      tree[i] = (tree[i] as number) + (this.blocks[i - 1] as T[]).length;
      const parent = i + (i & -i);
      if (parent <= size) tree[parent] = (tree[parent] as number) + (tree[i] as number);
    }
    this.tree = tree;
  }

  /** Block `b` gained (1) or lost (-1) an item. */
  private addToTree(b: number, delta: number): void {
    for (let i = b + 1; i < this.tree.length; i += i & -i) this.tree[i] = (this.tree[i] as number) + delta;
  }

  /** How many items the blocks before block `b` hold. */
  private itemsBefore(b: number): number {
    let sum = 0;
    for (let i = b; i > 0; i -= i & -i) sum += this.tree[i] as number;
    return sum;
  }
}

/** The largest power of two not above `n` (0 for 0). */
function highestPowerOfTwo(n: number): number {
  return n === 0 ? 0 : 2 ** Math.floor(Math.log2(n));
}
