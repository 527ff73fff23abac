import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The worker, ffmpeg and the AWS SDK run on the server only; keep native/binary packages
  // out of the bundle so they resolve from node_modules at run time.
  serverExternalPackages: [
    "@ffmpeg-installer/ffmpeg",
    "@ffprobe-installer/ffprobe",
    "@vladmandic/human",
    "@tensorflow/tfjs-core",
    "@tensorflow/tfjs-backend-wasm",
    "@tensorflow/tfjs-converter",
    "nodemailer",
  ],
  poweredByHeader: false,
  // No page of Truss is meant to be shown inside another site's frame: a framed sign-in
  // confirmation or clip editor could be clicked through by someone else's page.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
  // `npm test` type-checks the whole project (tsc --noEmit) once; checking again in every
  // build would only double the build time.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
};

export default nextConfig;
