// The alert sound of SPEC §8 (faults and status changes), synthesised: no audio file to download.
let context: AudioContext | null = null;

export function playAlertSound(kind: "fault" | "notice" = "notice"): void {
  if (typeof window === "undefined" || !("AudioContext" in window)) return;
  try {
    context ??= new AudioContext();
    const pattern = kind === "fault" ? [880, 660, 880, 660] : [660, 880];
    pattern.forEach((frequency, index) => {
      const oscillator = context!.createOscillator();
      const gain = context!.createGain();
      const start = context!.currentTime + index * 0.18;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.16);
      oscillator.connect(gain).connect(context!.destination);
      oscillator.start(start);
      oscillator.stop(start + 0.17);
    });
  } catch {
    // Browsers refuse audio before the first tap; the toast still shows.
  }
}
