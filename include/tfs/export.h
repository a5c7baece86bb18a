/*
 * export.h: TFS_API, the one export macro of libtfs.
 *
 * Every public function of include/tfs/ is declared with TFS_API; everything
 * else in the library is compiled with -fvisibility=hidden (CMake
 * C_VISIBILITY_PRESET hidden), so the shared library exports exactly the
 * public API and nothing a program could collide with.
 *
 *   ELF / Mach-O (GCC, Clang): default visibility, both when building the
 *     library and when using it; static and shared builds alike.
 *   Windows (and Cygwin): __declspec(dllexport) while building the DLL
 *     (TFS_BUILDING_LIBRARY, set by the library's CMake targets),
 *     __declspec(dllimport) in programs using it, nothing for the static
 *     library: define TFS_STATIC when linking libtfs statically (the
 *     exported CMake target tfs::tfs_static does so).
 *   A build that wants something else (an amalgamated single-file build, a
 *     test that marks the declarations) defines TFS_API itself before
 *     including any tfs header.
 */
#ifndef TFS_EXPORT_H
#define TFS_EXPORT_H

#ifndef TFS_API
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(TFS_STATIC)
#define TFS_API
#elif defined(TFS_BUILDING_LIBRARY)
#define TFS_API __declspec(dllexport)
#else
#define TFS_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define TFS_API __attribute__((visibility("default")))
#else
#define TFS_API
#endif
#endif /* TFS_API */

#endif /* TFS_EXPORT_H */
