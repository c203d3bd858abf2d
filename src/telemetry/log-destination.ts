import { fstatSync } from 'node:fs';
import pino, { type DestinationStream } from 'pino';

/**
 * Lines waiting for a pipe or socket that is not being read are kept up to this many bytes (about
 * ten thousand request lines); lines that would go over it are dropped and counted, never held
 * without a ceiling.
 */
export const DEFAULT_MAX_BUFFERED_LOG_BYTES = 8 * 1024 * 1024;

export type StdoutKind = 'file' | 'stream';

/**
 * What stdout is. A regular file or a device (a terminal, /dev/null) takes a write at once: no
 * reader can hold it back. A pipe or a socket (a container's log collector, journald, `| tee`) can
 * be full when its reader stalls.
 */
export function stdoutKind(fd = 1): StdoutKind {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() || stat.isCharacterDevice() ? 'file' : 'stream';
  } catch {
    return 'stream';
  }
}

let droppedLines = 0;

/** Log lines dropped since the process started because stdout was not being read (a metric). */
export function droppedLogLines(): number {
  return droppedLines;
}

export interface StdoutOptions {
  readonly fd?: number;
  /** Overrides what stdoutKind() finds (tests). */
  readonly kind?: StdoutKind;
  readonly maxBufferedBytes?: number;
  /** Told, once the backlog is written out, how many lines were dropped before it (logger.ts logs it). */
  readonly onDropsEnded?: (dropped: number) => void;
}

/**
 * Where log lines go.
 * - A file or a device: each line is written synchronously, as Node writes `process.stdout` to a
 *   file: one system call on the main thread instead of a hand-off to libuv's thread pool (about
 *   10 µs of a chat less off the main thread, docs/performance.md), and a line written is in the
 *   file even if the process is killed the next instant.
 * - A pipe or a socket: asynchronously, so a stalled reader never holds the event loop (lines logged
 *   while a write is in flight go out together). What is still buffered is written synchronously when
 *   the process exits. Nothing is held back to fill a buffer: the last lines before a SIGKILL are
 *   the ones most wanted. While the reader stalls, at most `maxBufferedBytes` wait; later lines are
 *   dropped, counted (droppedLogLines), and once the backlog is written out `onDropsEnded` is told
 *   how many were lost.
 */
export function stdoutDestination(options: StdoutOptions = {}): DestinationStream {
  const fd = options.fd ?? 1;
  if ((options.kind ?? stdoutKind(fd)) === 'file') return pino.destination({ dest: fd, sync: true });
  const maxLength = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_LOG_BYTES;
  const stream = pino.destination({ dest: fd, sync: false, maxLength });
  let unreported = 0;
  // Listened to only while lines are being dropped: `drain` is every backlog written out.
  const report = () => {
    const dropped = unreported;
    unreported = 0;
    options.onDropsEnded?.(dropped);
  };
  stream.on('drop', () => {
    droppedLines += 1;
    if (unreported === 0) stream.once('drain', report);
    unreported += 1;
  });
  return stream;
}
