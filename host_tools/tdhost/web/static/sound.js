// The big screen's sounds (docs/web.md §4, "Sound"): chimes made in code with Web Audio
// (no sound files), and the new blinds spoken by the browser's speech synthesis where it
// has one. Browsers start audio only after a click or key on the page: until then
// TCsound.blocked() is true (the console's room card tells the TD to click the TV once).
"use strict";

const TCsound = (function () {
  let ctx = null;
  const played = []; // what was played, newest last: ["level", "minute", "speak:…"] (tests)

  function context() {
    if (!ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      ctx = new AC();
    }
    return ctx;
  }

  // One bell-like note: a sine and its octave, a quick attack and a long decay.
  function note(ac, freq, at, length, gain) {
    for (const [mult, g] of [[1, gain], [2, gain * 0.3]]) {
      const osc = ac.createOscillator();
      const amp = ac.createGain();
      osc.type = "sine";
      osc.frequency.value = freq * mult;
      amp.gain.setValueAtTime(0.0001, at);
      amp.gain.exponentialRampToValueAtTime(g, at + 0.02);
      amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(amp).connect(ac.destination);
      osc.start(at);
      osc.stop(at + length + 0.05);
    }
  }

  // The three chimes: a new level rises (C-E-G), one minute left is two short high notes,
  // the end of a break rises twice (the room should sit down).
  const TUNES = {
    level: [[523.25, 0, 1.2], [659.25, 0.25, 1.2], [783.99, 0.5, 1.6]],
    minute: [[880, 0, 0.4], [880, 0.5, 0.6]],
    break_end: [[523.25, 0, 0.9], [659.25, 0.2, 0.9], [783.99, 0.4, 0.9],
                [523.25, 1.1, 0.9], [659.25, 1.3, 0.9], [1046.5, 1.5, 1.8]],
  };

  function chime(kind) {
    played.push(kind);
    const ac = context();
    if (!ac) return;
    const t0 = ac.currentTime + 0.05;
    for (const [f, at, len] of TUNES[kind] || TUNES.level) note(ac, f, t0 + at, len, 0.35);
  }

  function speak(text) {
    played.push("speak:" + text);
    if (!("speechSynthesis" in window)) return;
    const u = new SpeechSynthesisUtterance(text);
    u.rate = 0.95;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
  }

  function blocked() {
    const ac = context();
    return !!ac && ac.state === "suspended";
  }

  function unlock() {
    const ac = context();
    if (ac && ac.state === "suspended") ac.resume().catch(() => {});
  }

  return {chime, speak, blocked, unlock, played};
})();
