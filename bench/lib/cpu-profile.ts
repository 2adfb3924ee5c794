import { PACKAGE_ROOT } from '../../src/version.js';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that self time is read from. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  /** The node on top of the stack at each sample. */
  samples: number[];
  /** µs since the sample before. */
  timeDeltas: number[];
}

export interface SelfFrame {
  /** Function name and where it is defined (file:line, from the package root). */
  frame: string;
  selfMs: number;
  /** Of the samples looked at. */
  share: number;
}

/**
 * The functions where the samples were taken, most first: self time, summed over every call site.
 * With `under`, only samples taken beneath a function of that name count (the timed loop, not the set-up).
 */
export function topSelfFrames(
  profile: CpuProfile,
  { top, under }: { top: number; under?: string },
): { frames: SelfFrame[]; totalMs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const beneath = new Map<number, boolean>();
  const counts = (id: number): boolean => {
    if (under === undefined) return true;
    let known = beneath.get(id);
    if (known === undefined) {
      const up = parent.get(id);
      known = byId.get(id)?.callFrame.functionName === under || (up !== undefined && counts(up));
      beneath.set(id, known);
    }
    return known;
  };

  const selfUs = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || !counts(id)) return;
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = describe(node.callFrame);
    selfUs.set(frame, (selfUs.get(frame) ?? 0) + delta);
    totalUs += delta;
  });
  const frames = [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, us]) => ({ frame, selfMs: us / 1000, share: totalUs > 0 ? us / totalUs : 0 }));
  return { frames, totalMs: totalUs / 1000 };
}

function describe({ functionName, url, lineNumber }: CpuProfile['nodes'][number]['callFrame']): string {
  const name = functionName === '' ? '(anonymous)' : functionName;
  if (url === '') return name; // (garbage collector), (program), (idle)
  const path = url
    .replace(/^file:\/\//, '')
    .replace(`${PACKAGE_ROOT}/`, '')
    .replace(/^.*node_modules\//, '');
  return `${name} ${path}:${lineNumber + 1}`;
}
