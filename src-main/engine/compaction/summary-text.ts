/**
 * From the model's answer to the summary that enters the session: the `<analysis>` scratchpad is stripped and a
 * `<summary>` wrapper removed (docs/compaction.md "Stage 2, the summary").
 */

export function extractSummary(text: string): string {
  let out = text.replace(/<analysis>[\s\S]*?<\/analysis>/gi, '')
  // An analysis that was never closed runs up to the summary, or is all there is.
  const open = out.search(/<analysis>/i)
  if (open >= 0) {
    const summaryAt = out.search(/<summary>/i)
    out = summaryAt > open ? out.slice(0, open) + out.slice(summaryAt) : out.slice(0, open)
  }
  // From the first opening tag to the last closing one: the summary may quote text that has its own tags.
  const open2 = out.search(/<summary>/i)
  if (open2 >= 0) {
    const body = out.slice(open2 + '<summary>'.length)
    const close = body.toLowerCase().lastIndexOf('</summary>')
    out = close >= 0 ? body.slice(0, close) : body
  }
  return out.trim()
}
