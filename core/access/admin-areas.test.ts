import { describe, expect, it } from "vitest";
import { adminAreaHref, adminAreas, findAdminArea } from "./admin-areas";

describe("super-admin areas", () => {
  it("lists the 21 areas of the spec under /_admin/ with their spec labels", () => {
    expect(adminAreas).toHaveLength(21);
    expect(adminAreaHref("clubs")).toBe("/_admin/clubs");
    expect(findAdminArea("clubs")?.label).toBe("Organizations");
    expect(findAdminArea("pointsseries")?.label).toBe("Race Series");
    expect(findAdminArea("passes")?.label).toBe("Passes & Member Cards");
  });

  it("has unique keys and knows no others", () => {
    expect(new Set(adminAreas.map((a) => a.key)).size).toBe(adminAreas.length);
    expect(findAdminArea("nope")).toBeNull();
  });
});
