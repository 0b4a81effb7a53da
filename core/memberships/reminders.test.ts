import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { DAY_MS, reminderDue, reminderWindow, renderReminder } from "./reminders";

const now = Date.parse("2026-11-27T12:00:00Z");
const on = { isReminding: true, reminderDays: 30 };

describe("reminderDue", () => {
  it("is due within the division's days before the end, not before, not after", () => {
    expect(reminderDue(now + 10 * DAY_MS, on, now, false)).toBe(true);
    expect(reminderDue(now + 30 * DAY_MS, on, now, false)).toBe(true);
    expect(reminderDue(now + 31 * DAY_MS, on, now, false)).toBe(false);
    expect(reminderDue(now, on, now, false)).toBe(false);
    expect(reminderDue(now - DAY_MS, on, now, false)).toBe(false);
  });

  it("is never due when reminders are off or the person renewed", () => {
    expect(reminderDue(now + DAY_MS, { ...on, isReminding: false }, now, false)).toBe(false);
    expect(reminderDue(now + DAY_MS, on, now, true)).toBe(false);
  });

  it("agrees with the sweep's window and only ever reminds before the end", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -400, max: 400 }).map((d) => (d * DAY_MS) / 4),
        fc.integer({ min: 1, max: 180 }),
        fc.boolean(),
        fc.boolean(),
        (offset, days, isReminding, renewed) => {
          const expiresAt = now + offset;
          const due = reminderDue(expiresAt, { isReminding, reminderDays: days }, now, renewed);
          const window = reminderWindow(now, days);
          const inWindow = expiresAt > window.after && expiresAt <= window.until;
          expect(due).toBe(isReminding && !renewed && inWindow);
          if (due) expect(expiresAt).toBeGreaterThan(now);
          // A longer lead never drops a membership a shorter one reminds.
          if (due) expect(reminderDue(expiresAt, { isReminding, reminderDays: days + 1 }, now, renewed)).toBe(true);
        },
      ),
      fcParams(),
    );
  });
});

describe("renderReminder", () => {
  const mail = {
    lang: "en" as const,
    clubName: "Nordic <Club>",
    divisionName: "Members",
    seasonName: "2026",
    firstName: "Ann",
    expiresAt: Date.parse("2027-01-01T00:00:00Z"),
    renewUrl: "https://club.example/register/abc",
    unsubscribeUrl: "https://club.example/newsletters/unsubscribe?x",
  };

  it("names the last day, the renewal link and the opt-out, escaped", () => {
    const rendered = renderReminder(mail);
    expect(rendered.subject).toBe("Your Members membership ends soon");
    expect(rendered.text).toContain("Your Members membership for 2026 ends on December 31, 2026.");
    expect(rendered.text).toContain("Renew your membership: https://club.example/register/abc");
    expect(rendered.html).toContain("Nordic &lt;Club&gt;");
    expect(rendered.html).not.toContain("<Club>");
  });

  it("speaks French and drops a link that is not http(s)", () => {
    const rendered = renderReminder({ ...mail, lang: "fr", renewUrl: "javascript:alert(1)" });
    expect(rendered.subject).toBe("Votre adhésion à Members se termine bientôt");
    expect(rendered.text).toContain("se termine le 31 décembre 2026");
    expect(rendered.text).toContain("Communiquez avec le club pour la renouveler.");
    expect(rendered.html).not.toContain("javascript:");
  });
});
