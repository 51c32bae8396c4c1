// Table definitions of asysrep v1. Column names and declared types follow the
// contract; columns the contract leaves untyped are INTEGER (ids, times,
// counts). No indexes beyond the contract's primary keys.
#include "core/writer/asysrep_schema.h"

namespace asys {

const char* const kSchemaStatements[] = {
    "CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT)",
    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE PROCESSES (globalPid INTEGER PRIMARY KEY, pid INTEGER, name TEXT)",
    "CREATE TABLE ThreadNames (globalTid INTEGER, nameId INTEGER, priority INTEGER)",
    "CREATE TABLE TARGET_INFO_PPU (id INTEGER PRIMARY KEY, name TEXT, busLocation TEXT, "
    "hostName TEXT, uuid TEXT, computeMajor INTEGER, computeMinor INTEGER, ceCount INTEGER, "
    "cuCount INTEGER, totalMemory INTEGER, cuClock INTEGER, memoryClock INTEGER, "
    "peakFlopsFp32 REAL, peakFlopsFp16 REAL, peakFlopsBf16 REAL, peakFlopsFp8 REAL, "
    "peakFlopsInt8 REAL, hbmBandwidth REAL)",
    "CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER, "
    "correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER)",
    "CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
    "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, "
    "shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, "
    "blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER, "
    "staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, "
    "graphId INTEGER)",
    "CREATE TABLE HGGC_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
    "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, "
    "copyKind INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, "
    "dstDeviceId INTEGER, graphNodeId INTEGER, graphId INTEGER)",
    "CREATE TABLE HGGC_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
    "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, "
    "memKind INTEGER, graphNodeId INTEGER, graphId INTEGER)",
    "CREATE TABLE ENUM_HGGC_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT)",
    "CREATE TABLE ENUM_HGGC_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT)",
    "CREATE TABLE HGGC_GRAPH_NODE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER, "
    "nameId INTEGER, graphNodeId INTEGER, originalGraphNodeId INTEGER, graphId INTEGER)",
    "CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, "
    "category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, "
    "textId INTEGER, domainId INTEGER, argsId INTEGER)",
    "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER, "
    "nameId INTEGER, returnValue INTEGER, nestingLevel INTEGER, callchainId INTEGER)",
    "CREATE TABLE CALLCHAINS (id INTEGER, stackDepth INTEGER, symbol INTEGER, module INTEGER, "
    "unresolved INTEGER)",
    "CREATE TABLE PPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, globalTid INTEGER, "
    "deviceId INTEGER, contextId INTEGER, eventId INTEGER, address INTEGER, bytes INTEGER, "
    "memKind INTEGER, memoryOperationType INTEGER, accessFlags INTEGER, correlationId INTEGER, "
    "callchainId INTEGER)",
    "CREATE TABLE TARGET_INFO_PPU_METRICS (metricId INTEGER PRIMARY KEY, metricName TEXT, "
    "unit TEXT)",
    "CREATE TABLE PPU_METRICS (deviceId INTEGER, start INTEGER, duration INTEGER, "
    "metricId INTEGER, value REAL)",
    "CREATE TABLE PCCL_STAGE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER, "
    "deviceId INTEGER, channelId INTEGER, channelType TEXT, nameId INTEGER)",
};

const size_t kSchemaStatementCount = sizeof(kSchemaStatements) / sizeof(kSchemaStatements[0]);

}  // namespace asys
