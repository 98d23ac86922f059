import * as z from 'zod';

/** One line: `path: message` for each issue, e.g. `resources[0].blob: Invalid base64-encoded string`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => (issue.path.length > 0 ? `${z.core.toDotPath(issue.path)}: ${issue.message}` : issue.message)).join('; ');
}
