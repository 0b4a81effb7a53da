import type { ReactNode } from "react";

/**
 * A list of blocks edited without JavaScript (a newsletter's, a site page's): each block in its fieldset with
 * Move up and Remove, then an Add button per kind. The buttons post the whole form with an intent that
 * `editBlockList` (app/forms/block-list.ts) reads, so nothing typed is lost between steps.
 */
export function BlockListEditor<T extends string, B extends { type: T }>(props: {
  blocks: readonly B[];
  types: readonly T[];
  labels: Record<T, string>;
  busy: boolean;
  max: number;
  fields: (block: B, index: number) => ReactNode;
}) {
  const { blocks, types, labels, busy } = props;
  return (
    <>
      {blocks.length === 0 ? <p className="empty-state">No blocks yet: add one below.</p> : null}
      <ol className="plain-list">
        {blocks.map((block, index) => (
          <li key={index}>
            <fieldset className="block-fieldset">
              <legend>{`${index + 1}. ${labels[block.type]}`}</legend>
              {props.fields(block, index)}
              <p>
                {index > 0 ? (
                  <button type="submit" name="intent" value={`up:${index}`} className="small" disabled={busy}>
                    Move up
                  </button>
                ) : null}{" "}
                <button type="submit" name="intent" value={`remove:${index}`} className="small" disabled={busy}>
                  Remove
                </button>
              </p>
            </fieldset>
          </li>
        ))}
      </ol>
      <p>
        Add:{" "}
        {types.map((type) => (
          <button key={type} type="submit" name="intent" value={`add:${type}`} className="small" disabled={busy || blocks.length >= props.max}>
            {labels[type]}
          </button>
        ))}
      </p>
    </>
  );
}
