/**
 * From the model's answer to the summary that enters the session: the `<analysis>` scratchpad is stripped and a
 * `<summary>` wrapper removed (issue 6 item 2).
 */

export function extractSummary(text: string): string {
  let out = text.replace(/<analysis>[\s\S]*?<\/analysis>/gi, '')
  // An analysis that was never closed runs up to the summary, or is all there is.
  const open = out.search(/<analysis>/i)
  if (open >= 0) {
    const summaryAt = out.search(/<summary>/i)
    out = summaryAt > open ? out.slice(0, open) + out.slice(summaryAt) : out.slice(0, open)
  }
  const wrapped = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(out)
  if (wrapped) out = wrapped[1]!
  return out.trim()
}
