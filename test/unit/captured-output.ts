import { afterEach, beforeEach, vi } from 'vitest';

/** What a command wrote to stdout and stderr during each test of the file that calls this. */
export function capturedOutput(): { stdout: string; stderr: string } {
  const output = { stdout: '', stderr: '' };
  beforeEach(() => {
    output.stdout = '';
    output.stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      output.stdout += String(text);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      output.stderr += String(text);
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return output;
}
