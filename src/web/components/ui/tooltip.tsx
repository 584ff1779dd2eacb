import { type ReactElement, type ReactNode, useEffect, useId, useRef, useState } from "react";

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// Shared across tooltips: moving from one trigger to the next within the skip delay opens at once.
let lastClosedAt = 0;

/** Shows `content` after 700 ms of hover or on focus; Escape closes it. */
export function Tooltip({ content, children }: { content: ReactNode; children: (props: { "aria-describedby"?: string }) => ReactElement }) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();

  const show = () => {
    const delay = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS ? 0 : TOOLTIP_DELAY_MS;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), delay);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now();
      return false;
    });
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <span
      className="relative inline-flex"
      onPointerEnter={show}
      onPointerLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(event) => event.key === "Escape" && hide()}
    >
      {children({ "aria-describedby": open ? id : undefined })}
      {open && (
        <span role="tooltip" id={id} className="absolute right-0 top-full z-50 mt-2 whitespace-nowrap rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow">
          {content}
        </span>
      )}
    </span>
  );
}
