# Environment variants of the test suites, registered once every test target exists.
# Each variant is the same binary run under a different environment: a pinned backend,
# an emulated CPU profile, or qemu-x86_64 with a CPU model that lacks SHA-NI / AVX-512 / AVX2.
