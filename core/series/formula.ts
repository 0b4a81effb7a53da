/**
 * A points formula (a series' or a points system's `formula`), read as arithmetic and never run as code:
 * numbers, the names place, finishers, time and winner (times in seconds), + - * / ^, brackets, and the
 * functions min, max, floor, ceil, round and abs. "max(0, 51 - place)" gives 50 to the winner, 0 from 51st.
 */

export interface FormulaValues {
  readonly place: number;
  readonly finishers: number;
  /** Null without a time; a formula using it then gives 0 points. */
  readonly time: number | null;
  readonly winner: number | null;
}

type Node = (v: FormulaValues) => number;
export type CompiledFormula = { ok: true; evaluate: (values: FormulaValues) => number } | { ok: false; message: string };

const NAMES = new Set(["place", "finishers", "time", "winner"]);
const FUNCTIONS: Record<string, { arity: "one" | "many"; fn: (...xs: number[]) => number }> = {
  min: { arity: "many", fn: Math.min },
  max: { arity: "many", fn: Math.max },
  floor: { arity: "one", fn: Math.floor },
  ceil: { arity: "one", fn: Math.ceil },
  round: { arity: "one", fn: Math.round },
  abs: { arity: "one", fn: Math.abs },
};

class FormulaError extends Error {}

function tokens(text: string): string[] {
  const found = text.match(/\d+(?:\.\d+)?|[A-Za-z_]\w*|[-+*/^(),]|\S/g) ?? [];
  const bad = found.find((t) => !/^(\d|[A-Za-z_]|[-+*/^(),])/.test(t));
  if (bad) throw new FormulaError(`'${bad}' is not part of a formula`);
  return found;
}

export function compileFormula(text: string): CompiledFormula {
  let list: string[];
  try {
    list = tokens(text);
  } catch (error) {
    return { ok: false, message: `The formula cannot be read: ${(error as Error).message}` };
  }
  let at = 0;
  const peek = () => list[at];
  const take = (expected?: string) => {
    const token = list[at++];
    if (token === undefined) throw new FormulaError("it ends too early");
    if (expected !== undefined && token !== expected) throw new FormulaError(`'${expected}' expected where '${token}' is`);
    return token;
  };
  const expr = (): Node => {
    let left = term();
    while (peek() === "+" || peek() === "-") {
      const op = take();
      const [l, r] = [left, term()];
      left = op === "+" ? (v) => l(v) + r(v) : (v) => l(v) - r(v);
    }
    return left;
  };
  const term = (): Node => {
    let left = power();
    while (peek() === "*" || peek() === "/") {
      const op = take();
      const [l, r] = [left, power()];
      left = op === "*" ? (v) => l(v) * r(v) : (v) => l(v) / r(v);
    }
    return left;
  };
  const power = (): Node => {
    const base = unary();
    if (peek() !== "^") return base;
    take();
    const exponent = power();
    return (v) => base(v) ** exponent(v);
  };
  const unary = (): Node => {
    if (peek() === "-") {
      take();
      const inner = unary();
      return (v) => -inner(v);
    }
    return primary();
  };
  const primary = (): Node => {
    const token = take();
    if (token === "(") {
      const inner = expr();
      take(")");
      return inner;
    }
    if (/^\d/.test(token)) {
      const n = Number(token);
      return () => n;
    }
    if (/^[A-Za-z_]/.test(token)) {
      const name = token.toLowerCase();
      const fn = FUNCTIONS[name];
      if (fn) {
        take("(");
        const args = [expr()];
        while (peek() === ",") {
          take();
          args.push(expr());
        }
        take(")");
        if (fn.arity === "one" && args.length !== 1) throw new FormulaError(`${name} takes one value`);
        return (v) => fn.fn(...args.map((a) => a(v)));
      }
      if (!NAMES.has(name)) throw new FormulaError(`unknown name '${token}' (use place, finishers, time or winner)`);
      return (v) => v[name as keyof FormulaValues] ?? Number.NaN;
    }
    throw new FormulaError(`'${token}' is out of place`);
  };
  try {
    if (list.length === 0) throw new FormulaError("it is empty");
    const root = expr();
    if (at < list.length) throw new FormulaError(`'${list[at]}' is out of place`);
    // Nonsense (a missing time, a division by zero) and negatives earn nothing rather than break a total.
    return {
      ok: true,
      evaluate: (values) => {
        const points = root(values);
        return Number.isFinite(points) ? Math.max(0, points) : 0;
      },
    };
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, message: `The formula cannot be read: ${error.message}` };
    throw error;
  }
}
