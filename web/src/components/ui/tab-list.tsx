/**
 * Tabs (WAI-ARIA tabs pattern): a row of `role="tab"` buttons; the caller renders the selected
 * panel with `tabPanelProps`. Arrow keys move between tabs.
 */
import type { KeyboardEvent } from 'react';
import './tab-list.css';

export interface TabDef<T extends string> {
  value: T;
  label: string;
}

export function TabList<T extends string>({ tabs, value, onChange, label, idPrefix }: { tabs: ReadonlyArray<TabDef<T>>; value: T; onChange: (value: T) => void; label: string; idPrefix: string }) {
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const index = tabs.findIndex((t) => t.value === value);
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
    onChange(next.value);
    document.getElementById(`${idPrefix}-tab-${next.value}`)?.focus();
  }
  return (
    <div className="tab-list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.value}
          id={`${idPrefix}-tab-${tab.value}`}
          type="button"
          role="tab"
          className="tab-list__tab"
          aria-selected={tab.value === value}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={tab.value === value ? 0 : -1}
          onClick={() => onChange(tab.value)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

export function tabPanelProps(idPrefix: string, value: string) {
  return { id: `${idPrefix}-panel`, role: 'tabpanel', 'aria-labelledby': `${idPrefix}-tab-${value}` } as const;
}
