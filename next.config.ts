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
  typedRoutes: false,
};

export default nextConfig;
