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
  // `npm test` type-checks the whole project (tsc --noEmit) once; checking again in every
  // build would only double the build time.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
};

export default nextConfig;
