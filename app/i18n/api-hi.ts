import type { ApiMessageKey } from "./api-en.ts";

// API के संदेश (`message`): हर कुंजी ./api-en.ts की कुंजी से मेल खाती है।
export const apiHi: Record<ApiMessageKey, string> = {
  "failure.otaBusy": "फ़र्मवेयर {version} का अपडेट पहले से चल रहा है।",
  "failure.otaRejected": "डिवाइस ने अपडेट नहीं लिया{hasError, select, yes {: “{error}”} other {}}।",
  "failure.noDevice": "इस खाते से अभी कोई डिवाइस जुड़ा नहीं है।",
  "failure.scheduleConflict": "{time} पर पहले से एक शेड्यूल है।",
  "failure.scheduleLimit": "एक डिवाइस पर ज़्यादा से ज़्यादा {max} शेड्यूल हो सकते हैं।",
  "failure.scheduleNotFound": "शेड्यूल नहीं मिला।",
  "api.motorSwitched": "मोटर {relay, select, on {चालू} other {बंद}} हो गई।",
  "api.scheduleSaved": "शेड्यूल सेव हो गया।",
  "api.scheduleUpdated": "शेड्यूल अपडेट हो गया।",
  "api.scheduleDeleted": "शेड्यूल हटा दिया गया।",
};
