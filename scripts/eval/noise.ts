// Seeded noise for the evaluation's simulated pictures (and the tests that read them): a fixed
// seed, so that every run scores the same picture.

/** Uniform values in [-spread, spread), the same sequence for the same seed. */
export function seededScatter(spread: number, seed = 1): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 2 * spread;
}

/** `--grain GREYS`: paper greyed by `grain` (of 255) and every pixel scattered by up to `grain` either way. */
export function grainy(data: Uint8Array, grain: number): Uint8Array {
  const scatter = seededScatter(grain);
  return Uint8Array.from(data, (v) => Math.max(0, Math.min(255, Math.round((v * (255 - grain)) / 255 + scatter()))));
}
