// The shared test support in one include: the oracle, parameters, bytes, guard pages, records, environment.
#pragma once

#include "bytes.h"
#include "drivers.h"
#include "environment.h"
#include "guarded.h"
#include "oracle.h"
#include "params.h"
#include "records.h"
