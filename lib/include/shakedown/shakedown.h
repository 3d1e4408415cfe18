// Umbrella header for applications: algorithms, hashing, HMAC, backend introspection, hex text.
#pragma once

#include "shakedown/algorithm.h"
#include "shakedown/backend.h"
#include "shakedown/cpu.h"
#include "shakedown/error.h"
#include "shakedown/hash.h"
#include "shakedown/hex.h"
#include "shakedown/hmac.h"
