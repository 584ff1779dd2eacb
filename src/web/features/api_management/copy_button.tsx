/** A button that copies text to the clipboard and says "Copied!" for a moment (spec 8). */
import { useEffect, useRef, useState } from "react";
import { Button, type ButtonProps } from "../../components/ui/button.tsx";
import { useToast } from "../../lib/toast.ts";

export const COPIED_FEEDBACK_MS = 2000;

/** The Clipboard API where the browser allows it, else a hidden text area and the copy command. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Permission denied or no Clipboard API: fall back below.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("copy refused");
}

export function CopyButton(
  { text, label, toastDescription, ...props }: Omit<ButtonProps, "onClick" | "children"> & {
    text: string;
    /** The button's accessible name before copying, e.g. "Copy path /api/search". */
    label: string;
    /** What the "Copied!" notification says; secrets must not be repeated there. */
    toastDescription?: string;
  },
) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { toast } = useToast();
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await copyText(text);
    } catch {
      toast({
        title: "Copy failed",
        description: "Select the text and copy it by hand.",
        variant: "destructive",
      });
      return;
    }
    setCopied(true);
    toast({ title: "Copied!", description: toastDescription });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
  };

  return (
    <Button variant="outline" size="sm" aria-label={copied ? "Copied!" : label} onClick={copy} {...props}>
      {copied ? "Copied!" : "Copy"}
    </Button>
  );
}
