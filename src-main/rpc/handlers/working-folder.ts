import { capturedRoot } from '../../node/proxy/recorder'
import { isTranscriptFolderProject } from '../../node/transcripts/origins'
import type { Services } from '../services'

/**
 * What a project's folder holds when it is not a working folder, in words ("Claude Code's transcripts …"), or null.
 * A project made on import for transcripts whose working folder is not on this machine is the folder of Claude
 * Code's logs; the captured project is the proxy's recordings. No session works there, and the Files view writes
 * nothing there.
 */
export function notAWorkingFolder(services: Services, projectId: string, root: string): string | null {
  if (isTranscriptFolderProject(services.store, projectId, root)) return "Claude Code's transcripts (imported sessions whose working folder is not on this machine)"
  if (root === capturedRoot(services.info.dataDir)) return 'the requests the capture proxy recorded'
  return null
}
