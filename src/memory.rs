//! Big tables that the search reads at random — the transposition table and the network's feature weights — in
//! memory that the kernel may back with huge pages (2 MiB). With 4 KiB pages nearly every such read also misses
//! the TLB (a 4 MiB network is a thousand pages); Stockfish's "large pages" answer the same problem. On Linux the
//! buffer is aligned to 2 MiB and marked with `madvise(MADV_HUGEPAGE)` before it is first written, which is all
//! that transparent huge pages in their default `madvise` mode ask for; elsewhere, or when the kernel says no, it
//! is ordinary memory. What it gains is measured in `docs/measurements.md` (Speed history).

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A huge page on x86_64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// Types for which every byte zero is a valid value (so a zero-filled buffer holds valid elements).
///
/// # Safety
/// Implement it only for such types: integers, atomics of integers, arrays and structs of them.
#[allow(unsafe_code)]
pub unsafe trait Zeroable {}

// SAFETY: zero is an `i16`.
#[allow(unsafe_code)]
unsafe impl Zeroable for i16 {}

/// A fixed-length, zero-initialised slice of `T` owned like a `Box<[T]>`, in huge-page-friendly memory when it is
/// at least a huge page long.
pub struct LargeBuffer<T> {
    ptr: NonNull<T>,
    len: usize,
    /// `None` for an empty buffer (nothing allocated).
    layout: Option<Layout>,
}

impl<T: Zeroable> LargeBuffer<T> {
    /// `len` zeroed elements.
    #[allow(unsafe_code)]
    pub fn zeroed(len: usize) -> LargeBuffer<T> {
        let bytes = len.checked_mul(std::mem::size_of::<T>()).expect("a buffer that fits the address space");
        if bytes == 0 {
            return LargeBuffer { ptr: NonNull::dangling(), len, layout: None };
        }
        // A table of a huge page or more starts on a huge page and fills its last one, so that every page of it can
        // be a huge one; smaller ones need only their type's alignment.
        let (size, align) = if bytes >= HUGE_PAGE {
            (bytes.div_ceil(HUGE_PAGE) * HUGE_PAGE, HUGE_PAGE)
        } else {
            (bytes, std::mem::align_of::<T>())
        };
        let layout = Layout::from_size_align(size, align).expect("a valid layout: align is a power of two");
        // SAFETY: `layout` has a non-zero size (`bytes > 0`). The block is `size ≥ len · size_of::<T>()` bytes,
        // aligned for `T`; advising it only changes how the kernel backs it; writing `size` zero bytes stays
        // inside it, and makes each of the `len` elements a valid `T` (the `Zeroable` contract).
        unsafe {
            let raw = alloc(layout);
            if raw.is_null() {
                handle_alloc_error(layout);
            }
            advise_huge_pages(raw, size);
            std::ptr::write_bytes(raw, 0, size);
            LargeBuffer { ptr: NonNull::new_unchecked(raw as *mut T), len, layout: Some(layout) }
        }
    }

    /// A copy of `items`.
    pub fn from_slice(items: &[T]) -> LargeBuffer<T>
    where
        T: Copy,
    {
        let mut buf = LargeBuffer::zeroed(items.len());
        buf.copy_from_slice(items);
        buf
    }
}

/// Asks the kernel to back `[ptr, ptr + size)` with huge pages; a hint, so a refusal (an old kernel, transparent
/// huge pages switched off) is ignored.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    // Linux's value on every architecture.
    const MADV_HUGEPAGE: i32 = 14;
    if size >= HUGE_PAGE && (ptr as usize).is_multiple_of(HUGE_PAGE) {
        // SAFETY: `madvise` is the C library's (POSIX) function, declared with its ABI. The range is one block
        // this process allocated and owns, page-aligned (it is 2 MiB-aligned); MADV_HUGEPAGE changes neither its
        // contents nor its mapping's validity, only which page size backs it, and on failure the call returns −1
        // and changes nothing. Exercised by `memory::tests`.
        unsafe {
            madvise(ptr as *mut std::ffi::c_void, size, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _size: usize) {}

impl<T> Drop for LargeBuffer<T> {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: the block was allocated in `zeroed` with exactly this layout and is freed once, here. The
            // elements need no drop of their own: `Zeroable` types (integers, atomics) have none.
            unsafe { dealloc(self.ptr.as_ptr() as *mut u8, layout) }
        }
    }
}

impl<T> Deref for LargeBuffer<T> {
    type Target = [T];

    #[inline]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised elements owned by `self` (or is dangling with `len` 0, which a
        // slice allows), and the shared borrow of `self` keeps them alive and unchanged through `&mut` access.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for LargeBuffer<T> {
    #[inline]
    #[allow(unsafe_code)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and the exclusive borrow of `self` makes this the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

// SAFETY: the buffer owns its elements as a `Box<[T]>` does, so it may cross threads (and be shared) exactly when
// they may.
#[allow(unsafe_code)]
unsafe impl<T: Send> Send for LargeBuffer<T> {}
#[allow(unsafe_code)]
unsafe impl<T: Sync> Sync for LargeBuffer<T> {}

impl<T: Zeroable + Copy> Clone for LargeBuffer<T> {
    fn clone(&self) -> Self {
        LargeBuffer::from_slice(self)
    }
}

impl<T: Zeroable + Copy> From<Vec<T>> for LargeBuffer<T> {
    fn from(v: Vec<T>) -> Self {
        LargeBuffer::from_slice(&v)
    }
}

impl<T: PartialEq> PartialEq for LargeBuffer<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for LargeBuffer<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for LargeBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Big buffers start on a huge page; every size reads back as zeroes, holds what is written, clones equal
    /// and frees (also empty ones).
    #[test]
    fn buffers_of_every_size() {
        for len in [0, 1, 7, 1000, HUGE_PAGE / 2, HUGE_PAGE / 2 + 3, 3 * HUGE_PAGE] {
            let mut b = LargeBuffer::<i16>::zeroed(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&x| x == 0), "{len}");
            if len * 2 >= HUGE_PAGE {
                assert!((b.as_ptr() as usize).is_multiple_of(HUGE_PAGE), "{len}");
            }
            for (i, x) in b.iter_mut().enumerate() {
                *x = i as i16;
            }
            let c = b.clone();
            assert_eq!(c, b);
            assert_eq!(c.last().copied(), len.checked_sub(1).map(|i| i as i16));
        }
        let v: Vec<i16> = (0..5000).map(|i| (i * 7) as i16).collect();
        assert_eq!(&*LargeBuffer::from(v.clone()), &v[..]);
    }
}
