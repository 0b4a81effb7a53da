/**
 * Membership expiry reminders (issue 25, decision 0057): when a membership's reminder is due, and the mail that
 * says so in the member's language. One reminder per membership: the service's row per member keeps it once.
 */
import { escapeHtml, safeLink } from "../newsletters/render";
import type { Lang } from "../forms/bilingual";
import { formatDateIn } from "../registration/receipt-lines";

export const DAY_MS = 86_400_000;
/** A division's reminder lead, in days: the default, and the range a division may choose from. */
export const REMINDER_DAYS = { default: 30, min: 1, max: 180 } as const;

export const REMINDER_MESSAGES = {
  days: `Enter a number of days from ${REMINDER_DAYS.min} to ${REMINDER_DAYS.max}`,
} as const;

export interface ReminderSettings {
  isReminding: boolean;
  reminderDays: number;
}

/**
 * Whether a membership ending at `expiresAt` is due its reminder at `now`: reminders are on, it has not ended,
 * it ends within the division's days, and the person has not already renewed for a later season.
 */
export function reminderDue(expiresAt: number, settings: ReminderSettings, now: number, renewed: boolean): boolean {
  if (!settings.isReminding || renewed) return false;
  return expiresAt > now && expiresAt - now <= settings.reminderDays * DAY_MS;
}

/** The end times whose reminders are due at `now`: after now, up to `days` ahead (the sweep's SQL range). */
export function reminderWindow(now: number, days: number): { after: number; until: number } {
  return { after: now, until: now + days * DAY_MS };
}

export interface ReminderMail {
  lang: Lang;
  clubName: string;
  divisionName: string;
  seasonName: string;
  firstName: string;
  /** The membership's end, exclusive (the season's end): its last day is the day before. */
  expiresAt: number;
  renewUrl: string | null;
  unsubscribeUrl: string | null;
}

const WORDS = {
  en: {
    subject: (division: string) => `Your ${division} membership ends soon`,
    hello: (name: string) => `Hello ${name},`,
    ends: (season: string, division: string, day: string) => `Your ${division} membership for ${season} ends on ${day}.`,
    renew: "Renew your membership",
    renewAt: (url: string) => `Renew your membership: ${url}`,
    noForm: "Contact the club to renew it.",
    why: (club: string) => `You receive this because you are a member with ${club}.`,
    optOut: "No more mail from the club",
  },
  fr: {
    subject: (division: string) => `Votre adhésion à ${division} se termine bientôt`,
    hello: (name: string) => `Bonjour ${name},`,
    ends: (season: string, division: string, day: string) => `Votre adhésion à ${division} pour ${season} se termine le ${day}.`,
    renew: "Renouveler votre adhésion",
    renewAt: (url: string) => `Renouveler votre adhésion : ${url}`,
    noForm: "Communiquez avec le club pour la renouveler.",
    why: (club: string) => `Vous recevez ce message parce que vous êtes membre de ${club}.`,
    optOut: "Ne plus recevoir de courriels du club",
  },
} as const;

/** The reminder's subject, plain text and HTML; every text is escaped and only http(s) links are kept. */
export function renderReminder(mail: ReminderMail): { subject: string; text: string; html: string } {
  const words = WORDS[mail.lang];
  const lastDay = formatDateIn(mail.expiresAt - DAY_MS, mail.lang, "UTC");
  const renew = safeLink(mail.renewUrl);
  const optOut = safeLink(mail.unsubscribeUrl);
  const ends = words.ends(mail.seasonName, mail.divisionName, lastDay);
  const text = [
    words.hello(mail.firstName),
    "",
    ends,
    renew ? words.renewAt(renew) : words.noForm,
    "",
    words.why(mail.clubName),
    ...(optOut ? [`${words.optOut}: ${optOut}`] : []),
  ].join("\n");
  const p = (inner: string) => `<p style="margin:0 0 12px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">${inner}</p>`;
  const html = [
    p(escapeHtml(words.hello(mail.firstName))),
    p(escapeHtml(ends)),
    renew ? p(`<a href="${escapeHtml(renew)}">${escapeHtml(words.renew)}</a>`) : p(escapeHtml(words.noForm)),
    p(`<small>${escapeHtml(words.why(mail.clubName))}${optOut ? ` <a href="${escapeHtml(optOut)}">${escapeHtml(words.optOut)}</a>` : ""}</small>`),
  ].join("");
  return { subject: words.subject(mail.divisionName), text, html };
}
