// Toasts without sonner in every page's JavaScript: sonner (about 10 KB gzip, with its styles)
// loads on the first toast, which always follows a click (a saved form, a failed action), and
// components/toaster.tsx mounts its <Toaster> then. The first toast waits a frame after that
// mount, so its aria-live region is on the page before the text arrives and screen readers
// announce it. Import `toast` from here, never from "sonner" (eslint).
type Sonner = typeof import("sonner");
type Message = Parameters<Sonner["toast"]["success"]>[0];

let loading: Promise<Sonner> | undefined;
let loaded: Sonner | undefined;
const hosts = new Set<(sonner: Sonner) => void>();
let markMounted = () => {};
const mounted = new Promise<void>((resolve) => (markMounted = resolve));

function load(): Promise<Sonner> {
  loading ??= import("sonner").then(
    (sonner) => {
      loaded = sonner;
      for (const host of hosts) host(sonner);
      return sonner;
    },
    (error: unknown) => {
      // A chunk that failed to load (a new deploy, a network blip): the next toast tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

const show = (kind: "success" | "error") => (message: Message) => {
  Promise.all([load(), mounted.then(nextFrame)]).then(
    ([sonner]) => sonner.toast[kind](message),
    (error: unknown) => console.error("Could not load the notifications", error),
  );
};

export const toast = { success: show("success"), error: show("error") };

/** For the one host: calls `mount` with sonner once a toast has loaded it (at once if one has); returns the unsubscribe. */
export function onToastsLoaded(mount: (sonner: Sonner) => void): () => void {
  if (loaded) mount(loaded);
  hosts.add(mount);
  return () => void hosts.delete(mount);
}

/** For the host: its <Toaster> is on the page and subscribed, so toasts may show. */
export const toasterMounted = () => markMounted();
