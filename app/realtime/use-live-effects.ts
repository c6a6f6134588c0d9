// What a pump's page does about a realtime message besides showing its state
// (./live-device.ts): the toast in the reader's words with its alert sound, reading the page's
// loader again (a firmware update done). The dashboard and the pump's settings page alike.
import { useCallback } from "react";
import { useRevalidator } from "react-router";
import { formatNumber } from "../../common/i18n/format.ts";
import { motorLogText } from "../../common/i18n/motor-log.ts";
import { playAlertSound } from "../alert-sound.ts";
import { useToast } from "../components/toast.tsx";
import { useLanguage, useT, useWords } from "../i18n/i18n.ts";
import type { LiveEffect } from "./live-device.ts";

export function useLiveEffects(): (effect: LiveEffect) => void {
  const t = useT();
  const language = useLanguage();
  const words = useWords();
  const toast = useToast();
  const revalidator = useRevalidator();
  return useCallback(
    (effect: LiveEffect) => {
      switch (effect.type) {
        case "toast": {
          const { text } = effect;
          toast.show(
            "log" in text
              ? motorLogText(text.log, words)
              : text.percent == null
                ? t(text.key, text.values)
                : `${t(text.key, text.values)} ${formatNumber(text.percent, language)}%`,
            effect.kind,
            effect.key,
          );
          if (effect.sound) playAlertSound(effect.sound);
          return;
        }
        case "revalidate":
          revalidator.revalidate();
          return;
        case "debugLine":
          return; // admins only
        default: {
          const unreachable: never = effect;
          return unreachable;
        }
      }
    },
    [toast, t, language, words, revalidator],
  );
}
