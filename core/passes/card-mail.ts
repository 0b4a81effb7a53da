/**
 * The mail that brings a holder their card's link (decision 0063): what the card is (club, kind, season, valid
 * until) and its signed link, in the holder's language. The words sit beside the reminder's and use the same
 * mail helpers (escaping, safe links, dates written as the language writes them), so neither is forked.
 */
import type { Lang } from "../forms/bilingual";
import { escapeHtml, safeLink } from "../newsletters/render";
import { formatDateIn } from "../registration/receipt-lines";

export interface CardMail {
  lang: Lang;
  clubName: string;
  kind: "pass" | "member_card";
  holderName: string;
  season: string | null;
  /** The card's last valid day (YYYY-MM-DD), or null for an open end. */
  validUntil: string | null;
  cardUrl: string;
}

const WORDS = {
  en: {
    kind: { member_card: "member card", pass: "season pass" },
    subject: (kind: string, club: string) => `Your ${kind} from ${club}`,
    hello: (name: string) => `Hello ${name},`,
    intro: (kind: string, club: string) => `Here is your ${kind} from ${club}.`,
    season: "Season",
    validUntil: "Valid until",
    open: "Open your card",
    // French sets a space before the colon.
    colon: ": ",
    show: "Show its QR code at the door, on your phone or printed. Keep this link: it is your card.",
  },
  fr: {
    kind: { member_card: "carte de membre", pass: "passe de saison" },
    subject: (kind: string, club: string) => `Votre ${kind} de ${club}`,
    hello: (name: string) => `Bonjour ${name},`,
    intro: (kind: string, club: string) => `Voici votre ${kind} de ${club}.`,
    season: "Saison",
    validUntil: "Valide jusqu’au",
    open: "Ouvrir votre carte",
    colon: " : ",
    show: "Présentez son code QR à l’entrée, sur votre téléphone ou imprimé. Gardez ce lien : c’est votre carte.",
  },
} as const;

/** A card's last day written as the language writes dates (noon UTC, so no zone moves it to another day). */
export function cardDay(date: string, lang: Lang): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? formatDateIn(Date.parse(`${date}T12:00:00Z`), lang, "UTC") : date;
}

/** The card mail's subject, plain text and HTML; every text is escaped and only an http(s) link is kept. */
export function renderCardMail(mail: CardMail): { subject: string; text: string; html: string } {
  const words = WORDS[mail.lang];
  const kind = words.kind[mail.kind];
  const link = safeLink(mail.cardUrl);
  const facts: [string, string][] = [
    ...(mail.season ? ([[words.season, mail.season]] as [string, string][]) : []),
    ...(mail.validUntil ? ([[words.validUntil, cardDay(mail.validUntil, mail.lang)]] as [string, string][]) : []),
  ];
  const text = [
    words.hello(mail.holderName),
    "",
    words.intro(kind, mail.clubName),
    ...facts.map(([label, value]) => `${label}${words.colon}${value}`),
    "",
    ...(link ? [`${words.open}${words.colon}${link}`, ""] : []),
    words.show,
  ].join("\n");
  const p = (inner: string) => `<p style="margin:0 0 12px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">${inner}</p>`;
  const html = [
    p(escapeHtml(words.hello(mail.holderName))),
    p(escapeHtml(words.intro(kind, mail.clubName))),
    ...(facts.length ? [p(facts.map(([label, value]) => `${escapeHtml(label)}${words.colon}<strong>${escapeHtml(value)}</strong>`).join("<br>"))] : []),
    ...(link ? [p(`<a href="${escapeHtml(link)}">${escapeHtml(words.open)}</a>`)] : []),
    p(escapeHtml(words.show)),
  ].join("");
  return { subject: words.subject(kind, mail.clubName), text, html };
}
