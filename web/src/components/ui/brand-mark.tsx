import { useId } from 'react';

/** The product's mark: a rising candle pair in a rounded tile. */
export function BrandMark({ size = 32 }: { size?: number }) {
  // Unique per instance: a gradient id shared with a hidden copy (e.g. the mobile top bar) would not paint.
  const gradientId = useId();
  return (
    <svg className="brand-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6d5efc" />
          <stop offset="1" stopColor="#14b8a6" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gradientId})`} />
      <path d="M11 9v14M21 6v16" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" opacity="0.85" />
      <rect x="8.5" y="13" width="5" height="7" rx="1.2" fill="#fff" />
      <rect x="18.5" y="9" width="5" height="9" rx="1.2" fill="#fff" />
    </svg>
  );
}
