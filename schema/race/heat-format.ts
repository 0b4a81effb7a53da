/** A sprint heat format as stored (core/timing/heat-formats.ts HeatFormat), with its cross-reference rules. */
import * as z from "zod";
import { heatFormatProblems } from "../../core/timing/heat-formats";

const label = z.string().trim().min(1).max(60);

export const heatFormatSchema = z
  .object({
    name: label,
    size: z.number().int().min(2).max(200),
    rounds: z
      .array(
        z.object({
          name: label,
          heats: z
            .array(
              z.object({ name: label, canonical_name: label, rank_index: z.number().int().min(0).max(9), slots: z.array(z.string().max(50)).min(2).max(12) }),
            )
            .min(1)
            .max(20),
        }),
      )
      .min(1)
      .max(8),
  })
  .superRefine((format, ctx) => {
    for (const problem of heatFormatProblems(format)) ctx.addIssue({ code: "custom", message: problem });
  });
