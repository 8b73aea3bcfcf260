"use client";

import { useEffect } from "react";

/**
 * After a login or logout: leaves with a full page load, so the service's SDK starts again and
 * reads the new shopper (it reads shopper data once per page load; contract, Front-end SDK).
 * The link is the way on when scripts are off.
 */
export function FullPageRedirect({ to, message }: { to: string | undefined; message: string }) {
  useEffect(() => {
    if (to) window.location.assign(to);
  }, [to]);
  if (!to) return null;
  return (
    <p role="status" className="alert">
      {message} <a href={to}>Continue</a>
    </p>
  );
}
