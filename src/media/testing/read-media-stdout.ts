import { runMedia } from "../run-ffmpeg";

/**
 * Runs ffmpeg or ffprobe and returns all it wrote to stdout: for tests, whose outputs (a few
 * frames, a JSON report, a packet listing) are small enough to hold.
 */
export async function readMediaStdout(options: {
  binaryPath: string;
  args: string[];
  timeoutMs: number;
}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await runMedia({
    ...options,
    consumeStdout: async (stdout) => {
      for await (const chunk of stdout) chunks.push(chunk as Buffer);
    },
  });
  return Buffer.concat(chunks);
}
