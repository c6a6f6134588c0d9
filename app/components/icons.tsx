// Inline SVG icons (no icon font to download). Decorative: the text beside each says it all.
type IconProps = { className?: string };

function Svg({ className, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      className={className ?? "icon"}
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** Motor switched ON. */
export function PlugIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M9 2v6M15 2v6M6 8h12v3a6 6 0 0 1-12 0V8zM12 17v5" />
    </Svg>
  );
}

/** Motor switched OFF. */
export function StopIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="12" cy="12" r="10" />
      <rect x="8" y="8" width="8" height="8" rx="1" />
    </Svg>
  );
}

/** Anything else: faults, schedules, firmware. */
export function AlertIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M12 3 2 21h20L12 3zM12 10v5M12 18h.01" />
    </Svg>
  );
}

export function RefreshIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5" />
    </Svg>
  );
}

export function ClockIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="12" cy="12" r="10" />
      <path d="M12 6v6l4 2" />
    </Svg>
  );
}
