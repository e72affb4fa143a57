// Status history entries shared by extractions and flow runs (spec 2.1, 2.6).
import { unixSeconds } from './ids.js';

export interface StatusEntry {
  status: string;
  time: number;
  message: string;
}

export function statusEntry(status: string, message: string, at: Date = new Date()): StatusEntry {
  return { status, time: unixSeconds(at), message };
}
