/**
 * The sound of a new call: two short tones made on the spot (no file to fetch). A browser lets a page
 * sound only after a touch on it: `unlock` is called from one (the sign-in, the sound button).
 */
export class Chime {
  #context: AudioContext | null = null;

  get ready(): boolean {
    return this.#context?.state === 'running';
  }

  unlock(): void {
    this.#context ??= new AudioContext();
    void this.#context.resume();
  }

  ring(): void {
    const context = this.#context;
    if (context?.state !== 'running') return;
    for (const [offset, frequency] of [
      [0, 880],
      [0.18, 660],
    ] as const) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = frequency;
      const at = context.currentTime + offset;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      tone.connect(gain).connect(context.destination);
      tone.start(at);
      tone.stop(at + 0.17);
    }
  }
}
