import { useAtomValue } from "jotai";
import { useEffect, useRef, useState } from "react";
import { dismissToast, TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, type ToastItem, toastsAtom } from "../../lib/toast.ts";

function ToastView({ item, onDismiss }: { item: ToastItem; onDismiss: () => void }) {
  const [offsetX, setOffsetX] = useState(0);
  const startX = useRef<number | null>(null);

  useEffect(() => {
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [item.id]);

  const destructive = item.variant === "destructive";
  return (
    <li
      data-testid="toast"
      className={`pointer-events-auto relative w-full touch-pan-y rounded-lg border p-4 pr-10 shadow-lg ${
        destructive ? "border-red-800 bg-red-700 text-white" : "border-slate-200 bg-white text-slate-900"
      }`}
      style={{ transform: `translateX(${offsetX}px)` }}
      onPointerDown={(event) => {
        startX.current = event.clientX;
      }}
      onPointerMove={(event) => {
        if (startX.current !== null) setOffsetX(Math.max(0, event.clientX - startX.current));
      }}
      onPointerUp={() => {
        if (offsetX > TOAST_SWIPE_THRESHOLD_PX) onDismiss();
        else setOffsetX(0);
        startX.current = null;
      }}
      onPointerCancel={() => {
        setOffsetX(0);
        startX.current = null;
      }}
    >
      {/* The live role sits inside the list item: an <li> with its own role breaks the list's semantics. */}
      <div role={destructive ? "alert" : "status"} aria-atomic="true">
        {item.title && <p className="text-sm font-semibold">{item.title}</p>}
        {item.description && <p className="mt-1 text-sm opacity-90">{item.description}</p>}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss notification"
        className="absolute right-2 top-2 rounded p-1 text-current opacity-80 hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

/**
 * The notification region: F8 moves focus to it, as the spec requires. From 1024 px up it sits over
 * the sidebar's foot, so a toast never covers a table's last column or a row's action.
 */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <section ref={region} tabIndex={-1} aria-label="Notifications (F8)" className="pointer-events-none fixed bottom-0 left-0 z-50 flex w-full flex-col p-4 focus:outline-none sm:max-w-sm lg:w-64">
      <ol className="flex flex-col gap-2">
        {toasts.map((item) => <ToastView key={item.id} item={item} onDismiss={() => dismissToast(item.id)} />)}
      </ol>
    </section>
  );
}
