import { paragraphsOf, localHref, type SiteLanguage } from "../../core/sites/site-links";
import type { PageBody } from "../../schema/wire/page-blocks";

/** A text's paragraphs, with its [label](link) links; React escapes every text, so a page can never carry markup. */
function Paragraphs({ text, lang }: { text: string; lang: SiteLanguage }) {
  return (
    <>
      {paragraphsOf(text).map((runs, p) => (
        <p key={p}>
          {runs.map((run, r) =>
            "href" in run ? (
              <a key={r} href={localHref(run.href, lang)}>
                {run.text}
              </a>
            ) : (
              <span key={r}>{run.text}</span>
            ),
          )}
        </p>
      ))}
    </>
  );
}

/** A site page's body as its visitors see it: blocks in order, or plain text. */
export function PageBlocks({ body, lang }: { body: PageBody; lang: SiteLanguage }) {
  if (body.kind === "text") {
    return (
      <div className="page-blocks">
        <Paragraphs text={body.text} lang={lang} />
      </div>
    );
  }
  return (
    <div className="page-blocks">
      {body.blocks.map((block, i) => {
        switch (block.type) {
          case "heading":
            return <h2 key={i}>{block.text}</h2>;
          case "text":
            return <Paragraphs key={i} text={block.text} lang={lang} />;
          case "image":
            return (
              <p key={i}>
                <img src={block.image_url} alt={block.alt} loading="lazy" />
              </p>
            );
          case "button":
            return (
              <p key={i}>
                <a className="button-link" href={localHref(block.url, lang)}>
                  {block.text}
                </a>
              </p>
            );
        }
      })}
    </div>
  );
}
