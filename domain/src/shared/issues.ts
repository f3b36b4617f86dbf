/**
 * A refinement's issue, as the contracts' superRefine steps raise them: zod's `custom` code, at a path,
 * with a message. The API words an issue by its path and message (platform's problem-middleware.ts),
 * never by a custom issue's code.
 */
import type { z } from 'zod';

export function addIssueAt(ctx: z.RefinementCtx, path: PropertyKey[], message: string): void {
  // Stryker disable next-line StringLiteral: equivalent, nothing reads a custom issue's code (see above); zod itself gives 'custom' to an issue without one.
  ctx.addIssue({ code: 'custom', path, message });
}
