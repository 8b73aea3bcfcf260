import "./globals.css";
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: {
    default: "Circuit & Co. — phones, tablets, laptops and audio",
    template: "%s · Circuit & Co.",
  },
  description: "A reference storefront: phones, tablets, laptops and audio, in euro or pounds.",
};

export const viewport: Viewport = { themeColor: "#0b5cad" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
