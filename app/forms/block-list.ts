/**
 * The steps of a list of blocks edited without JavaScript (a newsletter's, a site page's): each button posts
 * the whole form with an intent `add:{type}`, `up:{index}` or `remove:{index}`, and the page answers with the
 * list changed and nothing saved. One rule for every block editor.
 */

/** The blocks after an editor step, or null when the intent is not one (Save, Send and the like). */
export function editBlockList<B>(blocks: readonly B[], intent: string, types: readonly string[], blank: (type: string) => B, max: number): B[] | null {
  const [step, arg = ""] = intent.split(":");
  const next = [...blocks];
  const at = Number(arg);
  if (step === "add" && types.includes(arg) && next.length < max) next.push(blank(arg));
  else if (step === "remove" && Number.isInteger(at) && next[at] !== undefined) next.splice(at, 1);
  else if (step === "up" && Number.isInteger(at) && at > 0 && next[at] !== undefined) [next[at - 1], next[at]] = [next[at]!, next[at - 1]!];
  else return null;
  return next;
}
